"""What code does, as data: the capability lexicon of the effects model.

Two kinds of evidence feed a statement's effects:

- command words (shell, cmd, PowerShell cmdlets): judged by
  `memgate.scanning.effects.command_effects` on the program name and its
  arguments (flags, URLs, paths), with the lists below;
- API calls in any language (JavaScript, Ruby, Perl, PHP, Go, Java, C#,
  PowerShell .NET): the `API` patterns below, matched on code whose comments
  were removed by the grammar.

Effect names (a statement's tags):

    fetch       downloads remote content          send      sends data to a host
    exec        runs code not written here         connect   opens a connection out
    listen      serves a socket                   shell     spawns an interactive shell
    fd_dup      wires fds / streams to a socket    secret    reads credentials or keys
    local_read  reads local files or archives      decode    decodes (base64, hex, ...)
    outside     reads attacker-controlled input    persist   survives a reboot or login
    persist_rc  writes an rc / profile file        destroy   deletes or wipes broadly
    evade       disables defences, clears logs     cred_dump dumps credential stores
    obfuscated  hides a command name              shellcode raw machine code bytes
    lolbin_fetch a Windows binary used to download
"""

from __future__ import annotations

import re

INTERPRETERS = frozenset(
    {
        "sh",
        "bash",
        "zsh",
        "dash",
        "ksh",
        "ash",
        "fish",
        "busybox",
        "python",
        "python2",
        "python3",
        "perl",
        "ruby",
        "node",
        "nodejs",
        "php",
        "pwsh",
        "powershell",
        "iex",
        "invoke-expression",
        "cmd",
        "deno",
        "bun",
        "lua",
        "tclsh",
        "osascript",
        "source",
        ".",
    }
)
SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash", "fish", "csh", "tcsh"})
FETCHERS = frozenset(
    {
        "curl",
        "wget",
        "fetch",
        "aria2c",
        "lynx",
        "http",
        "https",
        "httpie",
        "invoke-webrequest",
        "iwr",
        "irm",
        "invoke-restmethod",
        "start-bitstransfer",
        "tftp",
        "xh",
    }
)
# `-c SCRIPT` style flags per interpreter, and the language of the script
INLINE_FLAGS: dict[str, tuple[frozenset[str], str]] = {
    **{s: (frozenset({"-c", "-ic", "-lc", "-cl", "-ci"}), "shell") for s in SHELLS},
    "su": (frozenset({"-c"}), "shell"),
    "python": (frozenset({"-c"}), "python"),
    "python2": (frozenset({"-c"}), "python"),
    "python3": (frozenset({"-c"}), "python"),
    "node": (frozenset({"-e", "--eval", "-p", "--print"}), "javascript"),
    "nodejs": (frozenset({"-e", "--eval", "-p"}), "javascript"),
    "deno": (frozenset({"eval"}), "javascript"),
    "bun": (frozenset({"-e", "--eval"}), "javascript"),
    "perl": (frozenset({"-e", "-E"}), "perl"),
    "ruby": (frozenset({"-e"}), "ruby"),
    "php": (frozenset({"-r"}), "php"),
    "lua": (frozenset({"-e"}), "lua"),
    "crystal": (frozenset({"eval"}), "ruby"),
    "osascript": (frozenset({"-e"}), "applescript"),
    "pwsh": (frozenset({"-c", "-command", "-com", "-comm"}), "powershell"),
    "powershell": (frozenset({"-c", "-command", "-com", "-comm"}), "powershell"),
    "cmd": (frozenset({"/c", "/k", "/r"}), "shell"),
}
ENCODED_FLAGS = frozenset({"-e", "-en", "-enc", "-encodedcommand", "-ec", "-encoded"})

_CREDENTIAL_LOCATIONS = (
    r"(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE|/root|/home/[\w*]+)?/?"
    r"\.(?:ssh|aws|gnupg|kube|docker|azure|netrc|npmrc|pypirc|git-credentials|vault-token|pgpass|"
    r"my\.cnf|s3cfg|boto|bash_history|zsh_history|mysql_history|psql_history|python_history)\b"
    r"|\bid_(?:rsa|dsa|ecdsa|ed25519)\b|\.pem\b|\.p12\b|\.pfx\b|\.kdbx\b|\.keychain(?:-db)?\b"
    r"|/etc/(?:shadow|gshadow|sudoers|master\.passwd)\b|\.env\b(?![\w-])|\bwallet\.dat\b"
    r"|\bcredentials(?:\.json|\.csv|\.xml)?\b|\bsecrets?\.(?:ya?ml|json|toml|env|txt)\b"
    r"|\bsecrets?\.(?:db|sqlite3?|kdbx)\b|\bLogin Data\b|\bcookies\.sqlite\b|\blogins\.json\b"
    r"|\bkey[34]\.db\b|\bplaces\.sqlite\b"
    r"|\bLocal State\b|Google/Chrome|Mozilla/Firefox|BraveSoftware|Microsoft/Edge|\bCookies\b"
    r"|\bgcloud/|application_default_credentials|\bntds\.dit\b|\bwp-config\.php\b|\bkubeconfig\b"
    r"|\\(?:SAM|SECURITY|SYSTEM)\b|\bunattend\.xml\b|\bgroups\.xml\b|\.config/(?:gh|hub)\b"
    # a container's mounted service-account token and secrets, a cluster's admin config
    r"|/(?:var/)?run/secrets/|/etc/kubernetes/(?:admin|kubelet|controller-manager|scheduler)\.conf\b"
)
SECRET_PATH = re.compile(_CREDENTIAL_LOCATIONS, re.IGNORECASE)
SECRET_VAR = re.compile(
    r"\$\{\{\s*secrets\.\w+|\$\{?\w*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|CREDENTIAL|"
    r"PRIVATE_KEY|_PAT)\w*\}?|\$env:\w*(?:TOKEN|SECRET|PASS|KEY|CRED)\w*",
    re.IGNORECASE,
)
SECRET_API = re.compile(
    r"document\.cookie|\blocalStorage\b|\bsessionStorage\b|\bprocess\.env\b(?!\.(?:NODE_ENV|PORT|HOME|PATH)\b)"
    r"|\bENV\[|\bENV\.(?:to_h|fetch)|%ENV\b|\$_ENV\b|\bgetenv\(|os\.Environ\(|\bos\.environ\b"
    r"|\bGet-Clipboard\b|\bpbpaste\b|\bxclip\b|\bxsel\b|\bclipboardData\b|navigator\.clipboard"
    r"|\bsecurity\s+(?:find-(?:generic|internet)-password|dump-keychain)|\bcmdkey\s+/list"
    r"|\bvaultcmd\b|\bGet-Credential\b|\bkeyring\b|\bsecret-tool\b|\bCredEnumerate"
    r"|\bGet-ChildItem\s+env:|\bgci\s+env:|\bdir\s+env:|\bls\s+env:",
    re.IGNORECASE,
)
DUMPERS = frozenset({"env", "printenv", "set", "export", "declare", "history", "compgen"})
# Literal prefilters of SECRET_PATH and SECRET_API, lower case: every match of the
# pattern holds one of its literals (an alternative's fixed text, or a shorter
# piece of it), so `text.lower()` without one cannot match. Both patterns ignore
# case, and `re` folds four non-ASCII letters onto ASCII ones (FOLDS_TO_ASCII):
# a text holding one runs the pattern unfiltered.
SECRET_PATH_LITERALS = (
    *(".ssh", ".aws", ".gnupg", ".kube", ".docker", ".azure", ".netrc", ".npmrc", ".pypirc"),
    *(".git-credentials", ".vault-token", ".pgpass", ".my.cnf", ".s3cfg", ".boto", "_history"),
    *("id_", ".pem", ".p12", ".pfx", ".kdbx", ".keychain", "/etc/", ".env", "wallet.dat"),
    *("credentials", "secret", "login data", "cookies", "logins.json", "key", "places.sqlite"),
    *("local state", "google/chrome", "mozilla/firefox", "bravesoftware", "microsoft/edge"),
    *("gcloud/", "ntds.dit", "wp-config.php", "kubeconfig", "\\", "unattend.xml", "groups.xml"),
    ".config/",
)
SECRET_API_LITERALS = (
    *("env", "cookie", "storage", "clipboard", "pbpaste", "xclip", "xsel", "security", "cmdkey"),
    *("vaultcmd", "get-credential", "keyring", "secret-tool", "credenumerate"),
)
FOLDS_TO_ASCII = ("\u0130", "\u0131", "\u017f", "\u212a")
"""The non-ASCII characters an ASCII letter of a case-insensitive `re` pattern
matches: İ ı (i), ſ (s), the Kelvin sign (k)."""

URL = re.compile(r"(?i)\b(?:https?|ftp|ftps|sftp|tftp|wss?|s3|gs|smb|file)://([^/\s:'\"?#`)\]}]+)")
OWN_HOST = re.compile(
    r"(?i)^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|::1|\[::1\]|10(?:\.\d{1,3}){3}|"
    r"192\.168(?:\.\d{1,3}){2}|172\.(?:1[6-9]|2\d|3[01])(?:\.\d{1,3}){2}|"
    r"[\w.-]+\.(?:local|internal|lan|corp|home\.arpa|localhost))$"
)

# API evidence in any language, on comment-free code. Each entry: tag, pattern.
API: tuple[tuple[str, str], ...] = (
    (
        # a recursive delete API on the home directory or a root, in any language
        # (Node fs.rmSync / rimraf, Ruby FileUtils.rm_rf, Go os.RemoveAll), or a
        # recursive listing of a drive piped into Remove-Item
        "destroy",
        r"\b(?:rmSync|rmdirSync|rimraf(?:\.sync)?|rm_rf|rm_r|remove_dir_all|RemoveAll)\s*\(\s*"
        r"(?:os\.homedir\(\)|Dir\.home\b|ENV\[\s*['\"]HOME['\"]\s*\]|process\.env\.HOME\b|"
        r"os\.Getenv\(\s*\"HOME\"\s*\)|os\.UserHomeDir\(\)|home_dir\(\)|"
        r"['\"`](?:/|~|~/|/\*|[A-Za-z]:\\{0,2}|/(?:home|etc|usr|var|root|opt|srv)/?)['\"`])"
        r"|\bGet-ChildItem\b[^|\n]{0,40}\s(?:-Path\s+)?['\"]?(?:[A-Za-z]:\\?|[A-Za-z]:\\(?:Users|Windows|ProgramData)\\?|\$env:(?:USERPROFILE|SystemRoot|HOMEPATH)|\$HOME|~)['\"]?\s[^|\n]{0,40}-Recurse[^|\n]{0,40}\|\s*(?:Remove-Item|ri|rm|del)\b"
        # a database or a whole keyspace dropped
        # (the statement itself, not a sentence naming it)
        r"|^\s*(?:[\w.-]+\s+(?:[\w.=-]+\s+){0,4}-[ec]\s+['\"])?DROP\s+DATABASE\s+(?:IF\s+EXISTS\s+)?(?!\w*(?:test|tmp|temp|scratch|dev|local|ci|e2e|sandbox)\w*\b)[\w`\"\[][^\s;]*\s*;?['\"]?\s*$"
        r"|^\s*db\.dropDatabase\s*\(\s*\)\s*;?\s*$",
    ),
    (
        "fetch",
        r"\bfetch\s*\(|\baxios(?:\.get)?\s*\(|\bhttps?\.get\s*\(|XMLHttpRequest|\$\.(?:get|ajax)\s*\("
        r"|\bDownload(?:String|File|Data)(?:Async)?\s*\(|\bNet\.WebClient\b|\bWebClient\b"
        r"|\bInvoke-(?:WebRequest|RestMethod)\b|\biwr\b|\birm\b|\bStart-BitsTransfer\b"
        r"|\bURI\.open\b|\bopen-uri\b|\bopen\(\s*['\"]https?:|\bNet::HTTP\.get|\bHTTParty\.get|\bRestClient\.get"
        r"|\bLWP::(?:Simple|UserAgent)|\bHTTP::Tiny|\bgetstore\s*\(|\bget\s*\(\s*['\"]https?:"
        r"|\bfile_get_contents\s*\(\s*['\"]https?:|\bcurl_exec\s*\(|\bhttp\.Get\s*\(|\bhttp\.NewRequest\s*\("
        r"|\burlopen\s*\(|\burlretrieve\s*\(|\brequests\.get\s*\(|\bMsxml2\.(?:Server)?XMLHTTP|\bWinHttp"
        r"|\bMicrosoft\.XMLHTTP|\bHttpClient\b.*\bGet(?:String|ByteArray|Stream)?Async"
        # Java / Kotlin URL streams; Lua's socket.http and Node's http.request on a URL
        r"|\bURL\s*\([^\n]{0,300}\)\s*\.\s*(?:openStream|openConnection|readText|readBytes)\s*\("
        r"|\bhttps?\.request\s*\(\s*['\"`]https?:",
    ),
    (
        "exec",
        r"(?<![\w.$])eval\s*\(|\bnew\s+Function\s*\(|\bset(?:Timeout|Interval)\s*\(\s*[A-Za-z_$][\w$]*\s*[,)]|(?<![\w.])Function\s*\(\s*(?:await|[A-Za-z_$])"
        r"|\.then\s*\(\s*eval\s*\)|\bvm\.runIn\w*\s*\(|\bexecSync\s*\(|\bexecFileSync\s*\(|\bspawnSync\s*\("
        r"|\bchild_process\b[^\n]{0,40}\.(?:exec|spawn)\s*\(|\b(?:cp|child_process|proc)\.(?:exec|spawn|execFile)\s*\("
        r"|(?<![\w.])(?:system|passthru|shell_exec|popen|proc_open|pcntl_exec|assert|create_function)\s*\("
        r"|\binstance_eval\b|\bclass_eval\b|\bKernel\.(?:exec|system|spawn)|\bIO\.popen|\bOpen3\.|%x[({\[]"
        r"|\bexec\.Command(?:Context)?\s*\(|\bsyscall\.Exec\s*\(|\bRuntime\.getRuntime\(\)\.exec\s*\("
        r"|\bnew\s+ProcessBuilder\s*\(|\bProcess\.Start\s*\(|\bInvoke-Expression\b|(?<![\w-])iex\b"
        r"|\[\s*scriptblock\s*\]::Create|\bInvoke-Command\b|\bReflection\.Assembly\]::Load(?:File)?\s*\("
        r"|\bWScript\.Shell\b|\bShellExecute\w*\s*\(|\bCreateObject\s*\(\s*['\"]WScript|\bWinExec\s*\("
        r"|(?<![\w.])exec\s*\(|(?<![\w.])exec\s+['\"$]|(?<![\w.])(?:spawn|execv?p?e?)\s*\(\s*['\"/]"
        r"|\$\(\s*\$\w+\s*\)"
        # Lua: a chunk loaded from a value and called (`load(body)()`, loadstring);
        # Ruby: eval / system reached through send; PowerShell: the call operator on
        # a variable (`& $s ...`: what runs is whatever the variable names)
        r"|(?<![\w.:])load(?:string)?\s*\(\s*[A-Za-z_][\w.]*\s*\)\s*\(|\bloadstring\s*\("
        r"|\b(?:public_send|__send__|send)\s*\(?\s*:(?:eval|system|exec|spawn|instance_eval|class_eval)\b"
        r"|(?:^|[;|{(]\s*)&\s*\$\w+"
        # Ruby / Perl backticks around a value: the value runs as a command
        r"|`[^`\n]{0,80}(?:#\{|\$\w)[^`\n]{0,80}`"
        # a server-side template compiled from a value: the template language runs
        # code (ERB, EJS, Handlebars, Nunjucks, Pug, Liquid, Twig, lodash, Velocity)
        # from outside input itself (`ERB.new(params[:tpl])`, `ejs.render(req.query.t)`);
        # outside input passed as the template's data is what templates are for
        r"|(?:\bERB\.new|\bejs\.(?:render|compile)|require\(\s*['\"]ejs['\"]\s*\)\.(?:render|compile)"
        r"|\bHandlebars\.compile|\bnunjucks\.renderString|\bpug\.(?:render|compile)"
        r"|\bLiquid::Template\.parse|->createTemplate|\b_\.template|\bVelocity\.evaluate"
        r"|\brender_template_string)\s*\(\s*(?:params\[|req\.(?:query|body|params)\b"
        r"|request\.(?:form|args|values|GET|POST|json|getParameter)\b|\$_(?:GET|POST|REQUEST)\b"
        r"|ctx\.(?:query|request\.body)\b|c\.(?:Query|PostForm|Param)\()",
    ),
    (
        "connect",
        r"\bTCPSocket\b|\bUDPSocket\b|\bIO::Socket(?:::INET|::SSL)?\b|\bSocket::|\bsocket\s*\(\s*\w*,?\s*(?:PF_INET|AF_INET)"
        r"|\bp?fsockopen\s*\(|\bstream_socket_client\s*\(|\bnet\.(?:Socket|connect|createConnection)\s*\("
        r"|\bnew\s+net\.Socket|\bnet\.Dial\w*\s*\(|\bSockets\.Tcp[Cc]lient\b|\bTcpClient\s*\(|\bTCPClient\b|\bUdpClient\b"
        r"|/dev/(?:tcp|udp)/[\w.${}-]|/inet/(?:tcp|udp)/|\bztcp\b|zsh/net/tcp|\bsocket\.tcp\s*\(|\bsocket\.connect\s*\("
        r"|\bconnect\s*\(\s*[A-Z_]*SOCK|\.connect\s*\(\s*\d{2,5}\s*,|\bs_client\b|\bopenssl-connect:"
        # Java / C#: a client socket built with a host or an address family
        # (`new Socket("h", 4444)`, `new Socket(AddressFamily.InterNetwork, ...)`), a NIO channel
        r"|\brequire\s*\(\s*['\"]net['\"]\s*\)\s*\)?\.(?:Socket|connect|createConnection)\b"
        r"|\bnew\s+(?:java\.net\.)?Socket\s*\(\s*(?:['\"]|[A-Za-z_][\w.]*\s*[,)])|\bSocketChannel\.open\s*\(\s*new\s+InetSocketAddress",
    ),
    (
        "deserialize",
        r"\bObjectInputStream\b|\.readObject\s*\(|\bBinaryFormatter\b|\bLosFormatter\b"
        r"|\bNetDataContractSerializer\b|\bunserialize\s*\(|\bMarshal\.load\b|\bYAML\.load\s*\(|\bObjectStateFormatter\b"
        r"|\bXMLDecoder\b|\bJsonConvert\.DeserializeObject\b[^\n]{0,80}TypeNameHandling",
    ),
    (
        "listen",
        r"\bTCPServer\b|\bstream_socket_server\s*\(|\bnet\.createServer\s*\(|\bnet\.Listen\s*\("
        r"|\bTcpListener\b|\bsocket\.bind\b|\bIO::Socket::INET->new\([^)]*Listen|\bnew\s+ServerSocket\s*\(",
    ),
    (
        "shell",
        r"/bin/(?:ba|z|da|k|c|tc|a)?sh\b|\bcmd(?:\.exe)?\b(?!\s*=)|\b(?:ba|z)?sh\s+-i\b|\bpty\.spawn\b"
        r"|\bpowershell(?:\.exe)?\b|\bsystem\s*\$_|\bsystem\s*\(\s*\$_|\bexec\s*\(?\s*['\"](?:/bin/)?(?:ba|z)?sh\b"
        r"|['\"](?:ba|z|da)?sh['\"]|\bspawn\s*\(\s*['\"](?:/bin/)?(?:ba|z)?sh|-e\s+(?:/bin/)?(?:ba|z)?sh\b"
        r"|\bInvoke-Expression\s+\$|\biex\s+\(?\$|\bexec:(?:/bin/)?(?:ba|z)?sh|\bsystem:(?:ba|z)?sh",
    ),
    (
        "fd_dup",
        r"\bdup2\b|\bfdopen\b|\.reopen\s*\(|\bIO\.new\s*\(\s*\w+\s*\)|\.pipe\s*\(\s*\w+\.std(?:in|out)\b"
        r"|\bstd(?:out|err)\.pipe\s*\(|\b\d?>&\s*/dev/(?:tcp|udp)|\b0>&1\b|[<>]&\s*[3-9]\d*\b|[<>]&\s*\$\{?\w+|\bexec\s+\d+<>"
        r"|\bGetStream\s*\(\s*\)|\bmkfifo\b|\bmknod\b[^\n]{0,40}\bp\b|\bSTD(?:IN|OUT|ERR)->fdopen"
        r"|\bopen\s*\(\s*STD(?:IN|OUT|ERR)\s*,\s*['\"][<>]&|\bcmd\.Std(?:in|out|err)\s*=|\bStd(?:in|out)\s*[:=]\s*\w*conn"
        r"|=>\s*\$sock\b|array\(\s*0\s*=>\s*\$\w+|\$stdin\.reopen",
    ),
    (
        "decode",
        r"\bFromBase64String\b|\batob\s*\(|Buffer\.from\s*\([^)]*['\"](?:base64|hex)['\"]"
        r"|\bbase64_decode\s*\(|\bBase64\.(?:decode64|strict_decode64|urlsafe_decode64)|\.unpack1?\s*\(\s*['\"]m"
        r"|\bpack\s*\(\s*['\"]H\*|\bdecode_base64\s*\(|\bMIME::Base64|base64\.(?:Std|URL|Raw\w*)Encoding\.DecodeString"
        r"|\bhex\.DecodeString|\bb64decode\b|\bString\.fromCharCode\b|\[char\]\s*0x|\bgzinflate\s*\(|\bstr_rot13\s*\("
        r"|\bgzdecode\s*\(|\bzlib\.inflate|\bGZipStream\b|\bDeflateStream\b|\bConvert\]::FromBase64|-join\s*\(?\s*\["
        r"|\bchr\s*\(\s*\d+\s*\)\s*\.|\[char\[\]\]|\bstrrev\s*\(",
    ),
    (
        "outside",
        r"\$_(?:GET|POST|REQUEST|COOKIE|FILES)\b|\$_SERVER\[\s*['\"]HTTP_|\brequest\.getParameter\b"
        r"|\br\.URL\.Query\(\)|\br\.(?:FormValue|PostFormValue)\b|\breq\.(?:query|body|params|headers)\b"
        r"|\bparams\[|\brequest\.(?:form|args|values|GET|POST|json)\b|\bprocess\.argv\b|\$argv\b|@ARGV\b"
        r"|\bRequest\.(?:InputStream|Form|QueryString|Body|Query|Cookies|Params|Files)\b|\bHttpContext\.Request\b"
        r"|\bgetInputStream\s*\(\s*\)|\$_FILES\b|\blocation\.(?:hash|search)\b|\bevent\.data\b|\bctx\.(?:query|request\.body)\b|\bc\.(?:Query|PostForm|Param)\(",
    ),
    (
        "send",
        r"\bnavigator\.sendBeacon\s*\(|\bmethod\s*:\s*['\"](?:POST|PUT)['\"]|\baxios\.(?:post|put)\s*\("
        r"|\bXMLHttpRequest\b[^\n]{0,200}\.send\s*\(\s*\w|\bUpload(?:File|String|Data|Values)(?:Async)?\s*\("
        r"|\bSend-MailMessage\b|-Method\s+['\"]?(?:Post|Put)\b|\s-(?:Body|InFile)\s|\bFaraday\.(?:post|put)\b"
        r"|\bNet::HTTP\.post|\bNet::HTTP::Post\b|\bHTTParty\.post|\bRestClient\.post|\bhttp\.Post(?:Form)?\s*\("
        r"|\bCURLOPT_POSTFIELDS\b|\bCURLOPT_UPLOAD\b|\brequests\.(?:post|put)\s*\(|\bsmtplib\b|\bsendmail\b"
        r"|\bPostAsync\s*\(|\bPutAsync\s*\(|\.sendall?\s*\(|\.write\s*\(\s*(?:data|payload|buf)|\bWebhook\b"
        r"|\bnew\s+Image\(\)\.src\s*=|\.src\s*=\s*['\"`]https?://[^'\"`]*[?&]"
        # any HTTP client's POST / PUT / PATCH method on a literal URL (got, request,
        # superagent, ky, needle, $.post, ...): the verb and the URL, not the library
        r"|[\w$\]).]\.(?:post|put|patch)\s*\(\s*(?:['\"`]https?://|\{[^\n]{0,200}?\burl\s*:\s*['\"`]https?://)",
    ),
    (
        "local_read",
        r"\breadFileSync\s*\(|\bfs\.readFile\b|\bFile\.(?:read|open|ReadAll\w*)\s*\(|\bIO\.read\s*\("
        r"|\bos\.ReadFile\s*\(|\bioutil\.ReadFile\s*\(|\bfile_get_contents\s*\(\s*['\"$](?!https?:)"
        r"|\bGet-Content\b|\bgc\s+|\bCompress-Archive\b|\[IO\.File\]::Read|\bReadAllBytes\b|\bopen\s*\(\s*['\"][/~]"
        r"|\bGet-ChildItem\b[^\n]{0,80}-Recurse|\bSlurp\b|<\s*\$\w+>",
    ),
    (
        "persist",
        r"\\(?:Software\\)?Microsoft\\Windows\\CurrentVersion\\(?:Run|RunOnce|Policies\\Explorer\\Run)\b"
        r"|\\Winlogon\b|\\Image File Execution Options\b|\bAppInit_DLLs\b|\bAppCertDlls\b"
        r"|\bRegister-ScheduledTask\b|\bNew-ScheduledTask\w*\b|\bNew-Service\b|\b__EventFilter\b"
        r"|\bCommandLineEventConsumer\b|\bSet-WmiInstance\b|\bcore\.hooksPath\b"
        r"|\\(?:ms-settings|exefile|mscfile|Folder)\\shell\\open\\command\b|\\Control\\Lsa\b"
        r"|\\Security Packages\b|\\Control\\SecurityProviders\\WDigest\b|\bUseLogonCredential\b"
        r"|\\Terminal Server\b|\bfDenyTSConnections\b"
        r"|\\Policies\\System\b|\bEnableLUA\b|\bCOR_PROFILER\b|\bAutodialDLL\b|\bClxDllPath\b"
        r"|\bsed\s+-i\b[^\n]{0,120}/etc/sudoers|\bNOPASSWD\b"
        r"|\b(?:HKLM|HKCU|HKEY_LOCAL_MACHINE|HKEY_CURRENT_USER)[:\\][^\n\"']{0,120}\\Policies\\"
        r"|\\Print\\Monitors\\|\\Command Processor\b|\bSCRNSAVE\.EXE\b|\bServiceDll\b|\bAutoRun\b"
        r"|\bUserInitMprLogonScript\b",
    ),
    (
        "persist_rc",
        r"(?:~|\$HOME|\$\{HOME\}|/root|/home/\w+)/\.(?:bashrc|bash_profile|bash_login|profile|zshrc|"
        r"zprofile|zshenv|zlogin|config/fish/config\.fish|cshrc|tcshrc|kshrc|xprofile|xinitrc)\b"
        r"|/etc/(?:profile|bash\.bashrc|zshrc|environment)\b|/etc/profile\.d/|\$PROFILE\b",
    ),
    (
        "evade",
        r"\b(?:Add|Set)-MpPreference\b[^\n]{0,80}-(?:Exclusion\w*|Disable\w*)|\bsetenforce\s+0\b"
        r"|\bufw\s+disable\b|\biptables\s+(?:-F|--flush)\b|\bhistory\s+-c\b|\bunset\s+HISTFILE\b"
        r"|\bHISTFILE=/dev/null|\bwevtutil\s+(?:cl|clear-log)\b|\bClear-EventLog\b|\bauditctl\s+-(?:D|e\s*0)\b"
        r"|\bnetsh\s+(?:advfirewall|firewall)\s+set\b[^\n]{0,60}\boff\b|\bfsutil\s+usn\s+deletejournal\b"
        r"|\bcsrutil\s+disable\b|\bspctl\s+--master-disable\b|\bamsiInitFailed\b|\bAmsiUtils\b"
        r"|\bDisableRealtimeMonitoring\s+(?:\$true|1)|\bsystemctl\s+(?:stop|disable|mask)\s+"
        r"(?:firewalld|apparmor|auditd|falcon-sensor|sysmon|osqueryd|clamav\w*|rsyslog|syslog)\b"
        r"|\bsc(?:\.exe)?\s+(?:stop|delete|config)\s+(?:WinDefend|Sense|wscsvc|EventLog|MpsSvc)\b"
        r"|\\(?:PowerShell\\(?:ModuleLogging|ScriptBlockLogging|Transcription))\b|\bEnable(?:ModuleLogging|ScriptBlockLogging)\b"
        r"|\btimestomp\b|\btouch\s+-[a-z]*[rt]\b|\bRemove-Item\b[^\n]{0,80}(?:ConsoleHost_history|\.bash_history)"
        r"|\brm\b[^\n]{0,40}\.(?:bash|zsh)_history\b|\bTamperProtection\b",
    ),
    (
        "cred_dump",
        r"\blsass(?:\.exe|\.dmp)?\b|\bmimikatz\b|\bsekurlsa\b|\blsadump\b|\bcomsvcs(?:\.dll)?\b[^\n]{0,40}MiniDump"
        r"|\breg(?:\.exe)?\s+save\s+HKLM\\(?:SAM|SYSTEM|SECURITY)\b|\bntdsutil\b|\bsecretsdump\b|\bInvoke-Mimikatz\b"
        r"|\bGet-GPPPassword\b|\blazagne\b|\bpypykatz\b|\bnanodump\b|\bOut-Minidump\b|\bgsecdump\b|\bhashdump\b"
        r"|\bInvoke-Kerberoast\b|\bRubeus\b|\bunshadow\b|\bdump-keychain\b|\bGet-VaultCredential\b"
        r"|\bfindstr\s+/si\s+pass|\bInvoke-(?:PowerDump|CredentialInjection|DllInjection|TokenManipulation)\b",
    ),
    (
        "obfuscated",
        r"\$\{?\w{1,8}\}?\$\{?\w{1,8}\}?(?:\$\{?\w{1,8}\}?)?\s+(?:-\w|\||$)|\bprintf\s+['\"](?:\\x[0-9a-fA-F]{2}|\\[0-7]{3}){2,}"
        r"|\becho\s+-e\s+['\"](?:\\x[0-9a-fA-F]{2}|\\[0-7]{3}){2,}|\$'(?:\\x[0-9a-fA-F]{2}|\\[0-7]{3}){2,}"
        r"|\$\(\s*(?:echo|printf)\b[^)]{0,200}\|\s*(?:rev|base64\s+-d|xxd\s+-r|tr\b)[^)]*\)",
    ),
    (
        "miner",
        r"\bxmrig\b|\bminerd\b|\bcpuminer\b|\bstratum\+(?:tcp|ssl)://|\bnicehash\b|\bcoinhive\b",
    ),
    ("shellcode", r"(?:\\x[0-9a-fA-F]{2}){24,}|(?:0x[0-9a-fA-F]{2}\s*,\s*){24,}"),
)

TAMPER_WORDS = (
    *("hklm", "hkcu", "hkcr", "hkey_", "registry::", "hdefkey", "ssubkeyname"),
    *("winreg", "regsetvalue", "schtasks", "pam.d", "setcap", "dscl", "localgroup"),
    *(
        "usermod",
        "net user",
        "net1",
        "bcdedit",
        "system32",
        "bypass-uac",
        "bypassuac",
        "vwrbypass",
        "helperbypass",
        "nsudo",
        "akagi",
    ),
)
"""Gate words of the `tamper` pattern (lower case): one occurs in each match."""
PROXY_WORDS = (
    *("regsvr32", "rundll32", "msiexec", "cmstp", "odbcconf", "installutil", "mshta"),
    *("wmic", "win32_process", "-cimclass", "forfiles", "pcalua", "regasm", "regsvcs"),
    "win32_product",
)
"""Gate words of the `proxy_exec` pattern (lower case): one occurs in each match."""
CHANNEL_WORDS = (
    *("harddiskvolumeshadowcopy", "esentutl", "makecab", "hashcat", "--format="),
    *("webrequestmethods", "ftpwebrequest", "getrequeststream", "multipartformdatacontent"),
    *("load('http", 'load("http', "webrequest]", "bucket-owner-full-control", "withcredentials"),
    *("mimipenguin", "sharpdpapi", "safetykatz", "servicedll", "scrnsave", "if=/proc/"),
)
"""Further gate words: credential collection and cracking, upload channels."""

# API evidence whose words are rare: each entry has its own gate words (lower
# case, one of them in every match), so a common word of the tag (`reg`,
# `open`, `http`) does not make these patterns run.
API_GATED: tuple[tuple[str, tuple[str, ...], str], ...] = (
    (
        # PHP: a function called through a variable (`$f(...)`), where the statement
        # also decodes or reads request input: the name is hidden, the call is not
        "exec",
        ("strrev", "base64_decode", "str_rot13", "gzinflate", "$_get", "$_post", "$_request"),
        r"(?<![\w$>:\\])\$[A-Za-z_]\w*\s*\(",
    ),
    (
        "cred_dump",
        (
            *("harddiskvolumeshadowcopy", "esentutl", "makecab", "hashcat", "john"),
            *("if=/proc/", "mimipenguin", "lazagneforensic", "sharpdpapi", "safetykatz"),
        ),
        r"\bdd\b[^\n]{0,40}\bif=/proc/[^\s/]+/mem\b|\bmimipenguin\b|\bLaZagneForensic\b|\bSharpDPAPI\b|\bSafetyKatz\b"
        r"|HarddiskVolumeShadowCopy[^\n\"']{0,40}\\(?:Windows\\System32\\config\\(?:SAM|SYSTEM|SECURITY)\b|Windows\\NTDS\\ntds\.dit\b)"
        r"|\besentutl(?:\.exe)?\b[^\n]{0,60}\s/vss\b|\bmakecab(?:\.exe)?\b[^\n]{0,80}\b(?:sam|system|security|ntds)\.(?:hiv|hive|save|dit)\b"
        r"|\bhashcat(?:\.exe)?\b[^\n]{0,160}\s-m\s*(?:1000|3000|5500|5600|13100|18200|7500|1800|500|22000|2100)\b"
        r"|\bjohn\b[^\n]{0,80}--format=(?:nt|lm|netntlm\w*|krb5\w*|sha512crypt|md5crypt|mscash2?)\b",
    ),
    (
        "fetch",
        ("load('http", 'load("http', "webrequest]"),
        r"\.Load\s*\(\s*['\"]https?://|\bWebRequest\]::Create\s*\(\s*['\"]https?://",
    ),
    (
        "send",
        ("webrequestmethods", "ftpwebrequest", "getrequeststream", "multipartformdatacontent"),
        r"\bWebRequestMethods\+Ftp\]::(?:UploadFile|AppendFile)\b|\bFtpWebRequest\]::Create\s*\(|\.GetRequestStream\s*\("
        r"|\bMultipartFormDataContent\b",
    ),
    (
        # a security-relevant change to the system: a registry write under a key that
        # switches a defence off or hijacks a handler (policies, Defender, System
        # Restore, RDP, COM / shell handlers, service DLLs, Active Setup), a disabled
        # scheduled task, PAM, file capabilities, hidden or added admin accounts,
        # boot signing
        "tamper",
        TAMPER_WORDS,
        r"(?:\breg(?:\.exe)?\s+(?:add|import)\b|\bSet-ItemProperty\b|\bNew-ItemProperty\b|\bNew-Item\b|\bSet-Item\b"
        r"|\bSet(?:DWORD|String|ExpandedString|Binary|MultiString|QWORD)Value\b|\bwinreg\.SetValue(?:Ex)?\b|\bRegSetValue\w*)"
        r"[^\n]{0,200}?(?:\bHK(?:LM|CU|CR|U|EY_[A-Z_]+)[:\\]|Registry::|\bhDefKey\b|\bsSubKeyName\b)[^\n]{0,200}?"
        r"(?:\\Policies\\|Windows Defender|\\SystemRestore\b|\\Terminal Serv(?:er|ices)\b"
        r"|\\shell\\open\\command\b|\\Classes\\CLSID\\|\\InprocServer32\b|\\LocalServer32\b|\\TreatAs\b"
        r"|\\Active Setup\\Installed Components\b|\\Services\\[^\\\n\"']{1,60}\\Parameters\b"
        r"|\\Event Viewer\b|\\Windows Error Reporting\b|\\Control Panel\\Desktop\b"
        r"|\\WindowsUpdate\b|\\Control\\Lsa\b|\\WDigest\b|\\Winlogon\b|\\SafeBoot\b|\\AeDebug\b|\\SilentProcessExit\b"
        r"|\\NTDS\b|\\Print\\Monitors\b|\\Command Processor\b|\\User Shell Folders\b"
        r"|\\Session Manager\b|\\ZoneMap\\|\\NetworkProvider\\Order\b|\\UpdateOfficeConfig\b"
        r"|\\Office\\[\d.]+\\\w+\\(?:Options|Security)\b)"
        r"|\bschtasks(?:\.exe)?\b[^\n]{0,200}\s/change\b[^\n]{0,200}\s/disable\b"
        r"|(?:>>?|\btee\b(?:\s+-a)?|\bsed\s+-i\b[^\n]{0,200}?)\s*['\"]?/etc/pam\.d/"
        r"|\bsetcap\b[^\n]{0,40}\bcap_(?:setuid|setgid|sys_admin|sys_ptrace|sys_module|dac_read_search|dac_override|chown)\b"
        r"|\bdscl\b[^\n]{0,80}\s-(?:create|append|passwd)\b[^\n]{0,120}(?:\bIsHidden\s+1\b|/Groups/(?:admin|wheel)\b|\bUniqueID\s+0\b|-passwd\b)"
        r"|\bdscl\b[^\n]{0,40}\s-passwd\s+/Users/|\bdscl\s+\.\s+-create\s+/Users/[\w.-]+\s*(?:;|$)"
        r"|\bnet1?(?:\.exe)?\s+localgroup\s+['\"]?"
        r"(?:administrators|Remote Desktop Users|Administradores|Administrateurs)"
        r"['\"]?\s+\S+[^\n]{0,40}/add\b"
        r"|\bAdd-LocalGroupMember\b[^\n]{0,80}(?:Administrators|Remote Desktop Users)"
        r"|\busermod\s+-a?G\s+(?:sudo|wheel|root|admin)\b"
        r"|\bnet1?(?:\.exe)?\s+user\s+(?!/)['\"]?[\w.$-]+['\"]?\s+(?!/)['\"]?[^\s/'\"]{4,}"
        r"|\bbcdedit(?:\.exe)?\s+/set\b[^\n]{0,60}\b(?:testsigning|nointegritychecks|safeboot|disableelamdrivers)\b"
        # a file copied over or into System32 (a planted or replaced system binary)
        r"|\b(?:Copy-Item|copy|xcopy|cp|Move-Item|move)\b[^\n]{0,300}\s['\"]?(?:[A-Za-z]:\\Windows|%SystemRoot%|%windir%"
        r"|\$env:(?:windir|SystemRoot))\\System32\\[^\s'\"\\]+\.(?:exe|dll|scr|sys|cpl)['\"]?\s*(?:;|$)"
        # UAC bypass and token tools
        r"|\bBypass-UAC\b|\bInvoke-(?:EventVwrBypass|FodHelperBypass|WScriptBypassUAC)\b|\bNSudo\w*\b|\bAkagi(?:32|64)?\b",
    ),
    (
        # a signed Windows binary made to run a local payload for the caller (proxy
        # execution): regsvr32 of a scriptlet or a non-DLL file, rundll32 of a URL /
        # INF handler, script or non-DLL file, msiexec /z, cmstp of an INF, odbcconf
        # REGSVR, InstallUtil /U, mshta of script or a local HTA, process creation
        # through WMI, forfiles / pcalua launching a program
        "proxy_exec",
        PROXY_WORDS,
        r"\bregsvr32(?:\.exe)?\b[^\n]{0,120}?(?:/i:|\bscrobj\.dll\b|\s['\"]?[^\s'\"]+\.(?!dll\b|ocx\b|ax\b|exe\b)[a-z0-9]{2,4}['\"]?(?=\s|$))"
        r"|\brundll32(?:\.exe)?\s+['\"]?(?:javascript:|vbscript:"
        r"|[^\s,]*?(?:url|ieframe|shdocvw)\.dll\s*,\s*(?:OpenURL|FileProtocolHandler)"
        r"|[^\s,]*?(?:ie)?advpack\.dll\s*,\s*(?:LaunchINFSection|RegisterOCX)"
        r"|[^\s,]*?(?:setupapi|syssetup)\.dll\s*,\s*(?:InstallHinfSection|SetupInfObjectInstallAction)"
        r"|[^\s,]*?shell32\.dll\s*,\s*ShellExec_RunDLL|[^\s,]*?pcwutl\.dll\s*,\s*LaunchApplication"
        r"|[^\s,]*?zipfldr\.dll\s*,\s*RouteTheCall|[^\s,]*?mshtml(?:\.dll)?\s*,\s*RunHTMLApplication"
        r"|[^\s,'\"]+\.(?!dll\b|cpl\b|ocx\b|exe\b)[a-z0-9]{2,5}['\"]?\s*,)"
        r"|\bmsiexec(?:\.exe)?\b[^\n]{0,60}\s[/-][zy]\s"
        r"|\bcmstp(?:\.exe)?\s[^\n]{0,80}\.inf\b"
        r"|\bodbcconf(?:\.exe)?\b[^\n]{0,40}(?:\{\s*REGSVR\b|\s-f\s+\S+\.rsp\b)"
        r"|\binstallutil(?:\.exe)?\b[^\n]{0,120}(?:/logfile=\s|/LogToConsole=false|\s/U\s)"
        r"|\bmshta(?:\.exe)?\s+['\"]?(?:vbscript:|javascript:|about:|[^\s'\"]+\.hta\b)"
        r"|\bwmic(?:\.exe)?\b[^\n]{0,80}\bprocess\s+call\s+create\b"
        r"|\bInvoke-(?:Wmi|Cim)Method\b[^\n]{0,160}(?:\bWin32_Process\b|-CimClass\s+\$\w*process\w*)"
        r"|\bforfiles(?:\.exe)?\b[^\n]{0,160}\s/c\s+['\"]?(?:[A-Za-z]:\\|%\w+%|\.\\)[^\s'\"]+\.exe"
        r"|\bpcalua(?:\.exe)?\s+-a\b|\breg(?:asm|svcs)(?:\.exe)?\b[^\n]{0,40}\s/U\b"
        r"|\bWin32_Product\b[^\n]{0,80}\bInstall\b",
    ),
)

# Paths that persist when written to (a redirect, tee, cp / mv destination,
# Set-Content / Out-File): reading them does nothing.
PERSIST_TARGET = re.compile(
    r"\bauthorized_keys2?\b|/etc/ld\.so\.preload|/etc/cron|/var/spool/cron|\bcrontabs?/|"
    r"\bLaunch(?:Agents|Daemons)/|/etc/systemd/|\.config/systemd/|\.service\b|/etc/rc\.local|"
    r"/etc/init\.d/|/etc/rc\.d/|/usr/local/etc/rc\.d/|"
    r"\.git/hooks/|\\Startup\\|Start Menu\\Programs\\Startup|/etc/sudoers|"
    r"/etc/passwd\b|/etc/xdg/autostart|\.config/autostart",
    re.IGNORECASE,
)

LOLBINS = (
    "certutil",
    "bitsadmin",
    "mshta",
    "regsvr32",
    "rundll32",
    "msiexec",
    "wmic",
    "cmstp",
    "installutil",
    "msbuild",
    "regasm",
    "regsvcs",
    "odbcconf",
    "forfiles",
    "pcalua",
    "start-process",
)
"""Windows binaries that fetch or run what they are given: API tag words and text
gate words alike (one list, spliced into both in the same place)."""

API_KEYWORDS = (
    # file writes by API (`effects._API_WRITE`): a later statement may run the file
    *("writefile", "os.create", "createwritestream", "file.write", "file_put_contents"),
    *("writeall", "fileoutputstream", "set-content", "add-content", "out-file"),
    *("files.write", "binwrite", "io.write", "file.create", "openwrite", "file.new", "io.copy"),
    "fetch",
    "axios",
    "http",
    "xmlhttp",
    "download",
    "webclient",
    "invoke-",
    "iwr",
    "irm",
    "bits",
    "uri",
    "open",
    "lwp",
    "get(",
    "curl",
    "eval",
    "function",
    "vm.",
    "sync(",
    "child_process",
    "exec",
    "spawn",
    "system",
    "passthru",
    "popen",
    "assert",
    "instance_eval",
    "class_eval",
    "kernel",
    "open3",
    "%x",
    "command",
    "runtime",
    "processbuilder",
    "process.start",
    "iex",
    "scriptblock",
    "assembly",
    "wscript",
    "shellexecute",
    "winexec",
    "socket",
    "sockopen",
    "stream_socket",
    "net.",
    "tcp",
    "udp",
    "/inet/",
    "s_client",
    "openssl",
    "server",
    "listen",
    "/bin/",
    "cmd",
    "pty",
    "powershell",
    "dup2",
    "fdopen",
    "reopen",
    "io.new",
    "pipe",
    ">&",
    "<&",
    "getstream",
    "mkfifo",
    "mknod",
    "base64",
    "atob",
    "buffer.from",
    "unpack",
    "pack(",
    "hex.",
    "b64",
    "fromcharcode",
    "[char",
    "gzinflate",
    "rot13",
    "gzdecode",
    "inflate",
    "gzipstream",
    "deflatestream",
    "-join",
    "chr(",
    "$_",
    "getparameter",
    "url.query",
    "formvalue",
    "req.",
    "params[",
    "request.",
    "argv",
    "location.",
    "event.data",
    "ctx.",
    "c.query",
    "sendbeacon",
    "method",
    "upload",
    "mail",
    "-body",
    "-infile",
    "faraday",
    "post",
    "curlopt",
    "requests.",
    "smtp",
    "send",
    "webhook",
    "image()",
    ".src",
    "readfile",
    "file.",
    "io.read",
    "file_get_contents",
    "get-content",
    "gc ",
    "compress-archive",
    "readall",
    "get-childitem",
    "slurp",
    "currentversion",
    "winlogon",
    "image file execution",
    "appinit",
    "appcert",
    "scheduledtask",
    "new-service",
    "__eventfilter",
    "eventconsumer",
    "wmiinstance",
    "ld.so.preload",
    "authorized_keys",
    "cron",
    "launchagents",
    "launchdaemons",
    "systemd",
    "rc.local",
    "init.d",
    "hooks",
    "hookspath",
    "startup",
    "logonscript",
    "services",
    "bashrc",
    "profile",
    "zshrc",
    "zshenv",
    "zlogin",
    "fish",
    "cshrc",
    "kshrc",
    "xinitrc",
    "environment",
    "mppreference",
    "setenforce",
    "ufw",
    "iptables",
    "history",
    "histfile",
    "wevtutil",
    "eventlog",
    "auditctl",
    "netsh",
    "fsutil",
    "csrutil",
    "spctl",
    "amsi",
    "realtime",
    "systemctl",
    "sc ",
    "sc.exe",
    "timestomp",
    "touch",
    "remove-item",
    "tamper",
    "exclusion",
    "lsass",
    "mimikatz",
    "sekurlsa",
    "lsadump",
    "comsvcs",
    "reg save",
    "reg.exe",
    "ntdsutil",
    "secretsdump",
    "gpppassword",
    "lazagne",
    "pypykatz",
    "nanodump",
    "minidump",
    "gsecdump",
    "hashdump",
    "kerberoast",
    "rubeus",
    "unshadow",
    "keychain",
    "vaultcredential",
    "findstr",
    "powerdump",
    "injection",
    "tokenmanipulation",
    "printf",
    "echo -e",
    "$'",
    "\\x",
    "0x",
    "$(",
    "`",
    "cookie",
    "localstorage",
    "sessionstorage",
    "process.env",
    "env[",
    "env.",
    "%env",
    "getenv",
    "environ",
    "clipboard",
    "pbpaste",
    "xclip",
    "xsel",
    "security ",
    "cmdkey",
    "vaultcmd",
    "credential",
    "keyring",
    "secret-tool",
    "credenum",
    "env:",
    ".ssh",
    ".aws",
    ".netrc",
    ".env",
    "id_rsa",
    "id_ed25519",
    ".pem",
    "/etc/shadow",
    "secret",
    "token",
    "password",
    "passwd",
    "api_key",
    "apikey",
    "wget",
    "nc ",
    "ncat",
    "netcat",
    "socat",
    "telnet",
    "scp ",
    "rsync",
    "sftp",
    "rclone",
    "ftp",
    "git ",
    "s3 ",
    "s3://",
    "gsutil",
    "az storage",
    "sendmail",
    "mutt",
    "ping ",
    "dig ",
    "nslookup",
    "host ",
    "drill",
    "rm ",
    "del ",
    "rd ",
    "rmdir",
    "format",
    "mkfs",
    "dd ",
    "shred",
    "wipefs",
    "vssadmin",
    "wbadmin",
    "bcdedit",
    "cipher",
    "diskpart",
    "clear-disk",
    "format-volume",
    "shadowcopy",
    # cluster- and account-wide deletion (effects.py `_cluster_wide_delete`)
    *("kubectl delete", "destroy", "s3 rb", "s3 rm", "gsutil", "group delete", "projects delete"),
    ":(){",
    "crontab",
    "reg ",
    "schtasks",
    "at ",
    "useradd",
    "adduser",
    "net user",
    "net1",
    "launchctl",
    "update-rc.d",
    "chkconfig",
    *LOLBINS,
    "start ",
    "xxd",
    "sh ",
    "bash",
    "zsh",
    "python",
    "perl",
    "ruby",
    "node",
    "php",
    "pwsh",
    "awk",
    "lua",
    "source ",
    "tar ",
    "zip ",
    "7z",
    "bundle",
    "/dev/",
    "chmod",
    "| sh",
    "|sh",
    "sudo",
    "ssh ",
    "osascript",
    "defaults write",
    "tclsh",
    "busybox",
    *TAMPER_WORDS,
    *PROXY_WORDS,
    *CHANNEL_WORDS,
)

# The text-level gate: every rule needs a sink-like effect (exec, send,
# connect, destroy, persist, evade, credential dumping, obfuscation), and each
# of those has one of these words. A text without any costs one
# Aho-Corasick pass.
GATE_KEYWORDS = (
    "eval",
    # packets carrying a file, a terminal on another X server
    *("hping", "nping", "xterm", "drop database", "dropdatabase", "chmod -r", "chown -r"),
    # the password hashes or the account list opened to everyone (`chmod 666 /etc/shadow`)
    *("/etc/shadow", "/etc/gshadow", "/etc/passwd"),
    # a server-side template compiled from outside input
    *("erb.new", "ejs.render", "ejs.compile", "('ejs')", '("ejs")', "handlebars.compile"),
    *("renderstring", "pug.render", "pug.compile", "liquid::template", "createtemplate"),
    *("_.template", "velocity.evaluate", "render_template_string"),
    # Java URL streams, Lua's HTTP client and chunk loader, a whole environment read
    *("openstream", "openconnection", "socket.http", "loadstring", "getenv()", "http.request("),
    "& $",  # PowerShell's call operator on a variable
    *("function(buffer", "function(atob", "function(decode", "strrev(", "base64_decode("),
    *("file_get_contents('http", 'file_get_contents("http', "require('net')", 'require("net")'),
    # a UNC path starting a word: a copy onto another host's share
    " \\\\",
    "'\\\\",
    '"\\\\',
    "| ssh",
    "|ssh",
    "${ifs",
    "$ifs",
    "new function",
    "settimeout(",
    "setinterval(",
    "function(await",
    "vm.run",
    "execsync",
    "child_process",
    "exec",
    "spawn",
    "system(",
    "system$",
    'system "',
    "system '",
    "passthru",
    "popen",
    "proc_open",
    "create_function",
    "instance_eval",
    "class_eval",
    "%x",
    "processbuilder",
    "process.start",
    "iex",
    "invoke-expression",
    "scriptblock",
    "assembly]::load",
    "wscript",
    "shellexecute",
    "winexec",
    "invoke-command",
    "tcpsocket",
    "tcpserver",
    "udpsocket",
    "io::socket",
    "socket::",
    "sockopen",
    "stream_socket",
    "net.socket",
    "net.connect",
    "net.createconnection",
    "net.dial",
    "net.listen",
    "net.createserver",
    "tcpclient",
    "tcplistener",
    "udpclient",
    "/dev/tcp",
    "/dev/udp",
    "/inet/",
    "ztcp",
    "s_client",
    "socat",
    "nc ",
    "nc.exe",
    "ncat",
    "netcat",
    "telnet",
    "dup2",
    "fdopen",
    "reopen",
    "mkfifo",
    "sendbeacon",
    # HTTP clients' write verbs and JavaScript's POST option (`send`'s API patterns)
    ".post(",
    ".put(",
    ".patch(",
    "method: 'post'",
    'method: "post"',
    "method:'post'",
    'method:"post"',
    "upload",
    "send-mailmessage",
    "faraday",
    "net::http",
    "httparty",
    "restclient",
    "http.post",
    "curlopt_post",
    "sendall",
    ".send(",
    "webhook",
    "sendmail",
    "mailx",
    "mail -",
    "mutt",
    "smtp",
    "-method post",
    "-method put",
    "-infile",
    "-body",
    "curl",
    "wget",
    "scp ",
    "rsync",
    "sftp",
    "rclone",
    "lftp",
    "ftp://",
    "git push",
    "git bundle",
    "git remote",
    "aws s3",
    "gsutil",
    "az storage",
    "ping ",
    "dig ",
    "nslookup",
    "drill ",
    "rm -",
    # remote code loaded and run (`_REMOTE_CODE`, a script element), a Dockerfile
    # ADD of a URL (a download to a file)
    "import('http",
    'import("http',
    "import(`http",
    "getscript",
    "importscripts",
    "loadscript",
    "createelement",
    "add http",
    # recursive delete APIs (`destroy`'s API pattern) and `find … -delete`
    "rmsync",
    "rmdirsync",
    "rimraf",
    "rm_rf",
    "rm_r(",
    "remove_dir_all",
    "removeall",
    " -delete",
    "del /",
    "rd /s",
    "rmdir /s",
    "remove-item",
    "format c:",
    "format-volume",
    "mkfs",
    "dd if=",
    "dd of=",
    "shred",
    "wipefs",
    "vssadmin",
    "wbadmin",
    "bcdedit",
    "cipher",
    "diskpart",
    "clear-disk",
    "shadowcopy",
    # cluster- and account-wide deletion (effects.py `_cluster_wide_delete`)
    *("kubectl delete", "destroy", "s3 rb", "s3 rm", "gsutil", "group delete", "projects delete"),
    ":(){",
    "crontab",
    # not the bare word: "migrate the cron jobs" is ordinary prose, and every
    # cron-borne effect names a cron path (`/etc/cron.d`, `/var/spool/cron`) or
    # the `crontab` command (the crontab-line carrier's own command has its own
    # keyword)
    "/cron",
    "reg add",
    "reg save",
    "reg.exe",
    "schtasks",
    "useradd",
    "adduser",
    "net user",
    "net1 user",
    "launchctl",
    "launchagents",
    "launchdaemons",
    "update-rc.d",
    "chkconfig",
    "systemctl",
    "systemd",
    "rc.local",
    "init.d",
    "ld.so.preload",
    "authorized_keys",
    ".git/hooks",
    "hookspath",
    "alias.",
    "\\startup",
    "currentversion\\run",
    "winlogon",
    "image file execution",
    "appinit_dlls",
    "appcertdlls",
    "scheduledtask",
    "new-service",
    "sc create",
    "sc config",
    "sc stop",
    "sc.exe",
    "__eventfilter",
    "eventconsumer",
    "set-wmiinstance",
    "bashrc",
    ".profile",
    "bash_profile",
    "zshrc",
    "zprofile",
    "zshenv",
    "config.fish",
    "profile.d",
    "/etc/environment",
    "$profile",
    "mppreference",
    "setenforce",
    "ufw disable",
    "iptables -f",
    "iptables --flush",
    "history -c",
    "histfile",
    "wevtutil",
    "clear-eventlog",
    "auditctl",
    "netsh",
    "fsutil",
    "csrutil",
    "spctl",
    "amsi",
    "realtimemonitoring",
    "tamperprotection",
    "timestomp",
    "touch -",
    "lsass",
    "mimikatz",
    "sekurlsa",
    "lsadump",
    "comsvcs",
    "ntdsutil",
    "secretsdump",
    "gpppassword",
    "lazagne",
    "pypykatz",
    "nanodump",
    "minidump",
    "gsecdump",
    "hashdump",
    "kerberoast",
    "rubeus",
    "unshadow",
    "dump-keychain",
    "vaultcredential",
    "findstr /si",
    "ms-settings",
    "\\control\\lsa",
    "security packages",
    "wdigest",
    "uselogoncredential",
    "terminal server",
    "fdenytsconnections",
    "policies\\system",
    "enablelua",
    "cor_profiler",
    "autodialdll",
    "clxdllpath",
    "/etc/sudoers",
    "nopasswd",
    "modulelogging",
    "scriptblocklogging",
    "shell\\open\\command",
    "powerdump",
    "credentialinjection",
    "dllinjection",
    "tokenmanipulation",
    "printf '\\",
    'printf "\\',
    "echo -e",
    "$'\\",
    "\\x",
    "$(",
    *LOLBINS,
    "start-bitstransfer",
    "invoke-webrequest",
    "invoke-restmethod",
    "iwr ",
    "irm ",
    "downloadstring",
    "downloadfile",
    "downloaddata",
    "| sh",
    "|sh",
    "| bash",
    "|bash",
    "| zsh",
    "| python",
    "|python",
    "| perl",
    "| ruby",
    "| node",
    "| php",
    "| iex",
    "|iex",
    "sh -c",
    "bash -c",
    "zsh -c",
    "sh -i",
    "bash -i",
    "python -c",
    "python3 -c",
    "python2 -c",
    "perl -e",
    "perl -m",
    "ruby -e",
    "-rsocket",
    "node -e",
    "php -r",
    "lua -e",
    "pwsh",
    "powershell",
    "cmd /c",
    "cmd.exe",
    "-encodedcommand",
    "-enc ",
    "source <(",
    "bash <(",
    "sh <(",
    "pty.spawn",
    "<<",
    "/bin/sh",
    "/bin/bash",
    "/bin/zsh",
    "os.system",
    "subprocess",
    "os.popen",
    "runtime.getruntime",
    # deserialization, mail forwarding, payload builders, setuid, tool calls, C sockets
    "unserialize",
    "objectinputstream",
    "readobject",
    "binaryformatter",
    "losformatter",
    "marshal.load",
    "yaml.load",
    "xmldecoder",
    "typenamehandling",
    "objectstateformatter",
    "netdatacontractserializer",
    "new-inboxrule",
    "set-inboxrule",
    "forwardto",
    "msfvenom",
    "u+s",
    "http_post",
    "inet_aton",
    "sock_stream",
    *TAMPER_WORDS,
    *PROXY_WORDS,
    *CHANNEL_WORDS,
)

# Per tag, the words one of which must occur in a statement (lowercased) for
# the tag's API pattern to be tried at all: one Aho-Corasick pass per statement
# instead of every pattern.
TAG_WORDS: dict[str, tuple[str, ...]] = {
    # `_REMOTE_CODE` (effects.py) reads these from the same automaton pass
    "remote_code": ("import", "getscript", "importscripts", "loadscript"),
    "destroy": (
        "drop database",
        "dropdatabase",
        "rmsync",
        "rmdirsync",
        "rimraf",
        "rm_rf",
        "rm_r",
        "remove_dir_all",
        "removeall",
        "get-childitem",
    ),
    "fetch": (
        "fetch",
        "axios",
        "http",
        "xmlhttp",
        "download",
        "webclient",
        "invoke-",
        "iwr",
        "irm",
        "bits",
        "uri",
        "open",
        "lwp",
        "tiny",
        "getstore",
        "get(",
        "curl_exec",
        "urlopen",
        "urlretrieve",
        "requests.get",
        "msxml",
        "winhttp",
        "httpclient",
        "ajax",
        "restclient",
        "url(",
        ".request(",
    ),
    "exec": (
        "erb.new",
        "ejs",
        "handlebars.compile",
        "renderstring",
        "pug.",
        "liquid::template",
        "createtemplate",
        "_.template",
        "velocity.evaluate",
        "render_template_string",
        "shell:",
        "shell=",
        "shell =",
        "shell :",
        "process.new",
        "process.run",
        "eval",
        "function",
        "settimeout",
        "setinterval",
        "vm.run",
        "sync(",
        "child_process",
        "exec",
        "spawn",
        "system",
        "passthru",
        "popen",
        "proc_open",
        "assert",
        "create_function",
        "instance_eval",
        "class_eval",
        "kernel.",
        "open3",
        "%x",
        "command",
        "runtime",
        "processbuilder",
        "process.start",
        "invoke-expression",
        "iex",
        "scriptblock",
        "invoke-command",
        "assembly",
        "wscript",
        "shellexecute",
        "winexec",
        "$(",
        "#{",
        "`$",
        "load(",
        "loadstring",
        ":eval",
        ":system",
        "& $",
        "&$",
    ),
    "deserialize": (
        "objectinputstream",
        "readobject",
        "binaryformatter",
        "losformatter",
        "netdatacontract",
        "unserialize",
        "marshal.load",
        "yaml.load",
        "objectstate",
        "xmldecoder",
        "typenamehandling",
    ),
    "connect": (
        "tcp",
        "udp",
        "socket",
        "sockopen",
        "stream_socket",
        "net.",
        "/dev/",
        "/inet/",
        "zsh/net",
        "connect",
        "s_client",
    ),
    "listen": (
        "tcpserver",
        "stream_socket_server",
        "createserver",
        "net.listen",
        "tcplistener",
        "socket.bind",
        "serversocket",
        "listen",
    ),
    "shell": (
        "/bin/",
        "cmd",
        "sh -i",
        "pty.spawn",
        "powershell",
        "system",
        "exec",
        "'sh'",
        '"sh"',
        "'bash'",
        '"bash"',
        "'zsh'",
        '"zsh"',
        "spawn",
        "-e ",
        "iex",
        "invoke-expression",
    ),
    "fd_dup": (
        "dup2",
        "fdopen",
        "reopen",
        "io.new",
        ".pipe",
        "0>&1",
        ">&",
        "<&",
        "exec ",
        "getstream",
        "mkfifo",
        "mknod",
        "std",
        "=>",
        "array(",
        "$stdin",
    ),
    "decode": (
        "strrev",
        "base64",
        "atob",
        "buffer.from",
        "unpack",
        "pack(",
        "decode",
        "b64",
        "fromcharcode",
        "[char",
        "gzinflate",
        "rot13",
        "gzdecode",
        "inflate",
        "gzipstream",
        "deflatestream",
        "-join",
        "chr(",
    ),
    "outside": (
        "$_",
        "getparameter",
        "url.query",
        "formvalue",
        "req.",
        "params[",
        "request.",
        "argv",
        "location.",
        "event.data",
        "ctx.",
        "c.query",
        "c.postform",
        "c.param",
        "getinputstream",
    ),
    "send": (
        "sendbeacon",
        "method",
        "axios.",
        "xmlhttprequest",
        "upload",
        "send-mailmessage",
        "-body",
        "-infile",
        "faraday",
        "net::http",
        "httparty",
        "restclient",
        "http.post",
        "curlopt",
        "requests.",
        "smtplib",
        "sendmail",
        "postasync",
        "putasync",
        ".send",
        ".write(",
        "webhook",
        "image()",
        ".src",
        ".post",
        ".put",
        ".patch",
    ),
    "local_read": (
        "readfile",
        "file.",
        "io.read",
        "file_get_contents",
        "get-content",
        "gc ",
        "compress-archive",
        "io.file",
        "readallbytes",
        "open(",
        "get-childitem",
        "slurp",
        "<$",
    ),
    "persist": (
        "currentversion",
        "winlogon",
        "image file execution",
        "appinit",
        "appcert",
        "scheduledtask",
        "new-service",
        "__eventfilter",
        "eventconsumer",
        "wmiinstance",
        "hookspath",
        "logonscript",
        "shell\\open\\command",
        "\\control\\lsa",
        "security packages",
        "wdigest",
        "uselogoncredential",
        "terminal server",
        "fdenytsconnections",
        "policies\\system",
        "enablelua",
        "cor_profiler",
        "autodialdll",
        "clxdllpath",
        "sudoers",
        "nopasswd",
        "servicedll",
        "scrnsave",
        "autorun",
        "\\print\\monitors",
        "command processor",
    ),
    "persist_rc": (
        "bashrc",
        "bash_profile",
        "bash_login",
        "profile",
        "zshrc",
        "zprofile",
        "zshenv",
        "zlogin",
        "config.fish",
        "cshrc",
        "kshrc",
        "xinitrc",
        "/etc/environment",
    ),
    "evade": (
        "mppreference",
        "setenforce",
        "ufw",
        "iptables",
        "history",
        "histfile",
        "wevtutil",
        "eventlog",
        "auditctl",
        "netsh",
        "fsutil",
        "csrutil",
        "spctl",
        "amsi",
        "realtimemonitoring",
        "systemctl",
        "sc ",
        "sc.exe",
        "logging",
        "timestomp",
        "touch",
        "remove-item",
        "rm ",
        "tamper",
    ),
    "cred_dump": (
        "lsass",
        "mimikatz",
        "sekurlsa",
        "lsadump",
        "comsvcs",
        "reg",
        "ntdsutil",
        "secretsdump",
        "gpppassword",
        "lazagne",
        "pypykatz",
        "nanodump",
        "minidump",
        "gsecdump",
        "hashdump",
        "kerberoast",
        "rubeus",
        "unshadow",
        "dump-keychain",
        "vaultcredential",
        "findstr",
        "invoke-",
    ),
    "obfuscated": ("$", "printf", "echo -e"),
    "miner": ("xmrig", "minerd", "cpuminer", "stratum+", "nicehash", "coinhive"),
    "shellcode": ("\\x", "0x"),
}
SECRET_WORDS = (
    ".ssh",
    ".aws",
    "id_",
    ".pem",
    "shadow",
    ".env",
    "cred",
    "secret",
    "token",
    "pass",
    "key",
    "cookie",
    "storage",
    "env",
    "clipboard",
    "pbpaste",
    "xclip",
    "xsel",
    "security",
    "cmdkey",
    "vault",
    "keyring",
    "history",
    "login data",
    "chrome",
    "firefox",
    "wallet",
    "netrc",
    "npmrc",
    "pypirc",
    "gnupg",
    "kube",
    "docker",
    "\\sam",
    "\\system",
    "ntds",
    "wp-config",
    "unattend",
    "groups.xml",
    "gcloud",
    ".p12",
    ".pfx",
    ".kdbx",
    "keychain",
    "sudoers",
    "local state",
    "mozilla",
    "brave",
    "edge",
    ".config",
    "azure",
    "pgpass",
    "my.cnf",
    "s3cfg",
    "boto",
    "_pat",
    "private",
)
