"""Claude Code hooks: `memgate hook pre-tool-use` and `memgate hook post-tool-use`.

Claude Code runs the command on every tool call with the hook's JSON on stdin.
`pre-tool-use` asks a running memgate (`MEMGATE_URL`, key in `MEMGATE_KEY`) to
decide the call and prints `hookSpecificOutput` with `permissionDecision`
(allow | ask | deny) and, for a rewrite, `updatedInput`. When memgate cannot be
reached or answers an error, the decision is `ask`, never `allow`.
`post-tool-use` reports the tool's result so its sensitive values are
fingerprinted.

This module imports only the standard library, and the `memgate` console script
dispatches to it before loading anything else: it runs on every tool call and
must start fast.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Mapping
from typing import IO, Any

URL_ENV, KEY_ENV = "MEMGATE_URL", "MEMGATE_KEY"
ROLE_ENV, AGENT_ENV, TASK_ENV = "MEMGATE_GUARD_ROLE", "MEMGATE_AGENT", "MEMGATE_TASK"
TIMEOUT_ENV = "MEMGATE_HOOK_TIMEOUT"
DEFAULT_URL = "http://127.0.0.1:8765"
DEFAULT_TIMEOUT = 10.0
HOOKS = ("pre-tool-use", "post-tool-use")
CLAUDE_DECISION = {"allow": "allow", "rewrite": "allow", "ask": "ask", "deny": "deny"}


class Unreachable(Exception):
    """memgate did not answer, or answered with an error."""


def call_id(event: Mapping[str, Any]) -> str:
    """The tool use id Claude Code gives, else one derived from the session, tool
    and input, the same before and after the call."""
    given = event.get("tool_use_id")
    if isinstance(given, str) and given:
        return given[:200]
    basis = json.dumps(
        [event.get("session_id"), event.get("tool_name"), event.get("tool_input")],
        sort_keys=True,
        default=str,
    )
    return "cc_" + hashlib.sha256(basis.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _post(env: Mapping[str, str], path: str, body: dict[str, Any]) -> dict[str, Any]:
    url = (env.get(URL_ENV) or DEFAULT_URL).rstrip("/") + path
    if not url.startswith(("http://", "https://")):
        raise Unreachable(f"{URL_ENV} must be an http(s) URL")
    headers = {"Content-Type": "application/json"}
    key = env.get(KEY_ENV)
    if key:
        headers["Authorization"] = f"Bearer {key}"
    try:
        timeout = float(env.get(TIMEOUT_ENV) or DEFAULT_TIMEOUT)
    except ValueError:
        timeout = DEFAULT_TIMEOUT
    request = urllib.request.Request(  # noqa: S310 - scheme checked above
        url, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            answer = json.loads(response.read())
    except urllib.error.HTTPError as exc:
        raise Unreachable(f"memgate answered {exc.code}{_detail(exc)}") from None
    except (OSError, ValueError) as exc:
        raise Unreachable(f"memgate unreachable ({type(exc).__name__})") from None
    if not isinstance(answer, dict):
        raise Unreachable("memgate answered something other than a JSON object")
    return answer


def _detail(exc: urllib.error.HTTPError) -> str:
    """The problem's detail (it names the field, never echoes the input), if any."""
    try:
        problem = json.loads(exc.read(4096) or b"{}")
    except (OSError, ValueError):
        return ""
    detail = problem.get("detail") if isinstance(problem, dict) else None
    return f" ({detail[:300]})" if isinstance(detail, str) and detail else ""


def _read(stdin: IO[str]) -> dict[str, Any] | None:
    try:
        event = json.loads(stdin.read())
    except ValueError:
        return None
    return event if isinstance(event, dict) else None


def _common(event: Mapping[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
    body: dict[str, Any] = {
        "tool": str(event.get("tool_name") or ""),
        "call_id": call_id(event),
        "session_id": event.get("session_id") or None,
        "agent_id": env.get(AGENT_ENV) or None,
    }
    tool_input = event.get("tool_input")
    body["input"] = tool_input if isinstance(tool_input, dict) else {}
    return {k: v for k, v in body.items() if v is not None}


def pre_tool_use(stdin: IO[str], stdout: IO[str], env: Mapping[str, str]) -> int:
    event = _read(stdin)
    if event is None:
        return _answer(stdout, "ask", "memgate hook: the hook input is not a JSON object")
    body = _common(event, env)
    for name, var in (("role", ROLE_ENV), ("task_id", TASK_ENV)):
        if env.get(var):
            body[name] = env[var]
    try:
        decision = _post(env, "/v1/guard/decide", body)
    except Unreachable as exc:
        return _answer(stdout, "ask", f"{exc}; asking instead of allowing")
    verdict = CLAUDE_DECISION.get(str(decision.get("decision")), "ask")
    reasons = decision.get("reasons") or []
    reason = "; ".join(str(r) for r in reasons) if isinstance(reasons, list) else ""
    if decision.get("decision") == "rewrite":
        reason = f"memgate rewrote the call: {reason}"
    updated = decision.get("updated_input")
    return _answer(
        stdout,
        verdict,
        reason or f"memgate: {verdict}",
        updated if isinstance(updated, dict) and verdict != "deny" else None,
    )


def _answer(
    stdout: IO[str], decision: str, reason: str, updated: dict[str, Any] | None = None
) -> int:
    output: dict[str, Any] = {
        "hookEventName": "PreToolUse",
        "permissionDecision": decision,
        "permissionDecisionReason": reason,
    }
    if updated is not None:
        output["updatedInput"] = updated
    stdout.write(json.dumps({"hookSpecificOutput": output}) + "\n")
    return 0


def post_tool_use(stdin: IO[str], stdout: IO[str], env: Mapping[str, str]) -> int:
    """Report the result; exit 1 (a non-blocking error Claude Code shows) when
    memgate cannot take it: the call ran, but its values went unseen."""
    event = _read(stdin)
    if event is None:
        sys.stderr.write("memgate hook: the hook input is not a JSON object\n")
        return 1
    body = _common(event, env)
    body.pop("task_id", None)
    body["output"] = event.get("tool_response")
    try:
        _post(env, "/v1/guard/results", body)
    except Unreachable as exc:
        sys.stderr.write(f"memgate hook: result not recorded: {exc}\n")
        return 1
    return 0


def run(hook: str, env: Mapping[str, str] | None = None) -> int:
    """Run one hook on this process's stdin and stdout."""
    environ = os.environ if env is None else env
    if hook == "pre-tool-use":
        return pre_tool_use(sys.stdin, sys.stdout, environ)
    return post_tool_use(sys.stdin, sys.stdout, environ)
