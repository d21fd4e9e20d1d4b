"""The UI treats memory content as hostile: payloads stored through the API are
shown as text and never run; forms need the session's CSRF token; the session
cookie is HttpOnly and SameSite=Strict; every UI answer carries a strict CSP."""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator

import httpx
import pytest
from playwright.sync_api import Page, expect
from ui_helpers import shot, sign_in
from ui_support import UIServer

from memgate.service.ui.web import CSP

PAYLOADS = [
    "<script>window.__xss = 1</script> remember the meeting room",
    '<img src=x onerror="window.__xss = 2"> a picture of the office',
    "</textarea><script>window.__xss = 3</script><textarea> notes",
    '"><svg onload="window.__xss = 4"></svg> quoted attribute break-out',
    '**bold** [click me](javascript:window.__xss=5) <a href="javascript:window.__xss=6">x</a>',
    '<iframe srcdoc="<script>parent.__xss=7</script>"></iframe> <style>body{display:none}</style>',
]
WATCH = """
window.__xss = 0;
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(e.violatedDirective + " " + e.blockedURI);
});
"""


@contextlib.contextmanager
def _session_client(server: UIServer, who: str) -> Iterator[tuple[httpx.Client, str]]:
    """A plain HTTP client signed in to the UI, and its session's CSRF token."""
    with httpx.Client(base_url=server.base_url, timeout=10) as client:
        yield _sign_in(client, server, who)


def _sign_in(client: httpx.Client, server: UIServer, who: str) -> tuple[httpx.Client, str]:
    form = client.get("/ui/login")
    token = re.search(r'name="csrf" value="([^"]+)"', form.text)
    assert token is not None
    answer = client.post(
        "/ui/login", data={"key": server.keys[who], "csrf": token.group(1), "next": "/ui/queue"}
    )
    assert answer.status_code == 303, answer.text
    queue = client.get("/ui/queue")
    csrf = re.search(r'name="csrf" value="([^"]+)"', queue.text)
    assert csrf is not None
    return client, csrf.group(1)


def test_stored_payloads_never_execute(page: Page, ui_server: UIServer) -> None:
    ns = ["ui", "xss"]
    key = '"><img src=x onerror="window.__xss=9">'
    ids = [
        ui_server.write(
            text, ns, key=f"{key}{n}", metadata={"note": "<script>window.__xss=8</script>"}
        )
        for n, text in enumerate(PAYLOADS)
    ]
    dialogs: list[str] = []
    fetched: list[str] = []
    errors: list[str] = []
    page.add_init_script(WATCH)
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    page.on("request", lambda r: fetched.append(r.url))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)

    sign_in(page, ui_server, "reviewer")
    page.goto(ui_server.base_url + "/ui/queue?namespace=ui/xss")
    expect(page.locator("tr.row")).to_have_count(len(PAYLOADS))
    shot(page, "xss_queue")
    for memory_id, text in zip(ids, PAYLOADS, strict=True):
        page.goto(f"{ui_server.base_url}/ui/items/{memory_id}")
        # Shown as the literal text, in the content view and the edit box.
        assert page.inner_text("#content") == text
        assert page.input_value("#edit-content") == text
        # And through a rescan preview, where the text comes back from a form post.
        page.click("#rescan")
        expect(page.locator("#preview")).to_be_visible()
        assert page.input_value("#edit-content") == text
        assert page.evaluate("window.__xss") == 0
        assert page.evaluate("window.__csp") == []
    shot(page, "xss_item")
    assert page.locator("script").count() == 1  # ours: static/ui.js
    assert dialogs == []
    assert not [u for u in fetched if u.endswith("/x") or u.startswith("javascript:")]
    assert not [u for u in fetched if not u.startswith(ui_server.base_url)]  # no CDN
    assert not [e for e in errors if "Content Security Policy" in e]


def test_forms_need_the_csrf_token(ui_server: UIServer) -> None:
    memory_id = ui_server.write("A memory to attack with a forged form.", ["ui", "csrf"])
    with _session_client(ui_server, "reviewer") as (client, csrf):
        for data in ({}, {"csrf": ""}, {"csrf": csrf[:-2] + "xx"}):
            answer = client.post(f"/ui/items/{memory_id}/approve", data=data)
            assert answer.status_code == 403
            assert "CSRF" in answer.text
        bulk = client.post("/ui/queue/bulk", data={"ids": memory_id, "action": "approve"})
        assert bulk.status_code == 403
        assert ui_server.item(memory_id)["state"] == "pending_review"
        # An edit must come from a preview of exactly that text.
        forged = client.post(
            f"/ui/items/{memory_id}/edit",
            data={"csrf": csrf, "content": "replaced", "digest": "0" * 64},
        )
        assert forged.status_code == 303
        assert ui_server.item(memory_id)["content"] == "A memory to attack with a forged form."
        # With the token, the same request works.
        answer = client.post(f"/ui/items/{memory_id}/approve", data={"csrf": csrf})
        assert answer.status_code == 303
        assert ui_server.item(memory_id)["state"] == "approved"
    # The sign-in form has no session yet: its token is a double-submit cookie.
    with httpx.Client(base_url=ui_server.base_url) as fresh:
        answer = fresh.post("/ui/login", data={"key": ui_server.keys["admin"], "csrf": "guess"})
        assert answer.status_code == 403
        assert "mg_ui_session" not in answer.headers.get("set-cookie", "")


def test_session_cookie_and_sign_in_rules(page: Page, ui_server: UIServer) -> None:
    page.goto(ui_server.base_url + "/ui/queue")
    page.wait_for_url("**/ui/login?next=%2Fui%2Fqueue")
    page.fill("#key", ui_server.keys["agent"])
    page.click("button[type=submit]")
    expect(page.locator(".notice.error")).to_contain_text("agent key cannot sign in")
    page.fill("#key", "mgk_not-a-key")
    page.click("button[type=submit]")
    expect(page.locator(".notice.error")).to_contain_text("Unknown or revoked key")
    shot(page, "login")
    assert not [c for c in page.context.cookies() if c["name"] == "mg_ui_session"]

    sign_in(page, ui_server, "reviewer")
    (cookie,) = [c for c in page.context.cookies() if c["name"] == "mg_ui_session"]
    assert cookie["httpOnly"] is True
    assert cookie["sameSite"] == "Strict"
    assert cookie["path"] == "/ui"
    assert "mg_ui_session" not in page.evaluate("document.cookie")
    # The cookie is opaque: no key, key id or role in it.
    assert ui_server.key_ids["reviewer"] not in cookie["value"]
    assert cookie["value"] not in ui_server.keys["reviewer"]
    # Reviewers do not get admin pages.
    answer = page.goto(ui_server.base_url + "/ui/incident")
    assert answer is not None and answer.status == 403
    # Signing out ends the session on the server, not only in this browser.
    page.goto(ui_server.base_url + "/ui/queue")
    page.click("text=Sign out")
    page.wait_for_url("**/ui/login")
    stale = httpx.get(ui_server.base_url + "/ui/queue", cookies={"mg_ui_session": cookie["value"]})
    assert stale.status_code == 303 and stale.headers["location"].startswith("/ui/login")


@pytest.mark.parametrize(
    "path",
    [
        "/ui/login",
        "/ui/queue",
        "/ui/items/m_nope",
        "/ui/static/ui.js",
        "/ui/static/nope.js",
        "/ui/no/such/page",
    ],
)
def test_every_ui_answer_has_the_csp(ui_server: UIServer, path: str) -> None:
    answer = httpx.get(ui_server.base_url + path)
    assert answer.headers["content-security-policy"] == CSP
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.status_code < 500


def test_pages_reference_only_local_assets(ui_server: UIServer) -> None:
    with _session_client(ui_server, "admin") as (client, _):
        for path in ("/ui/queue", "/ui/incident", "/ui/log"):
            html = client.get(path).text
            assert "<script>" not in html and " on" + "click=" not in html
            assert not re.search(r"(src|href)=\"(https?:)?//", html), path
            assert "style=" not in html, path


def test_revoked_key_ends_the_session_and_bad_input_is_a_4xx_page(ui_server: UIServer) -> None:
    created = ui_server.api("admin").post(
        "/v1/keys", json={"name": "short-lived", "role": "reviewer", "namespaces": []}
    )
    assert created.status_code in (200, 201), created.text
    key_id, raw = created.json()["id"], created.json()["key"]
    ui_server.keys["short-lived"] = raw
    with _session_client(ui_server, "short-lived") as (client, _):
        assert client.get("/ui/queue").status_code == 200
        for path in ("/ui/queue?offset=-1", "/ui/queue?offset=abc", "/ui/queue?age=3y"):
            answer = client.get(path)
            assert 400 <= answer.status_code < 500, path
            assert answer.headers["content-type"].startswith("text/html")
            assert answer.headers["content-security-policy"] == CSP
        assert ui_server.api("admin").delete(f"/v1/keys/{key_id}").status_code == 200
        answer = client.get("/ui/queue")
        assert answer.status_code == 303
        assert answer.headers["location"].startswith("/ui/login")
