"""The `memgate` command line: the app, `scan` and `rules test` here; the other
command groups live in their own modules and are registered below."""

from __future__ import annotations

import json
import sys
from importlib import metadata
from pathlib import Path
from typing import Annotated, Any, NoReturn, TextIO

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

import memgate
from memgate.cli import demo, guard, incident, keys, memories, notify, review, serve
from memgate.cli.options import (
    EXIT_FAILED,
    EXIT_HELP,
    EXIT_INTERRUPTED,
    USAGE_ERROR,
    JsonOpt,
    console,
    emit_json,
    error_json,
    fail,
    json_requested,
    plain_flags_in_help,
    reset_output_mode,
)
from memgate.domain import Decision, ScanReport, Source
from memgate.errors import MemgateError
from memgate.scanning.examples import expand
from memgate.scanning.rules import load_rules
from memgate.trust import Inspector

plain_flags_in_help()
app = typer.Typer(
    help=f"memgate: customs for agent memory.\n\n{EXIT_HELP}",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
rules_app = typer.Typer(help="Work with detection rules.", no_args_is_help=True)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"memgate {version()}")
        raise typer.Exit(0)


def version() -> str:
    """The installed distribution's version (the package's own when run from a
    source tree that was never installed)."""
    try:
        return metadata.version("memgate-customs")
    except metadata.PackageNotFoundError:
        return memgate.__version__


@app.callback()
def root(
    show_version: Annotated[
        bool,
        typer.Option(
            "--version", is_eager=True, callback=_version, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """memgate: customs for agent memory."""
    reset_output_mode()


RUN, MEMORIES, INCIDENT, ADMIN, SCANNING = "Run", "Memories", "Incident", "Admin", "Scanning"
app.command(rich_help_panel=RUN)(serve.serve)
app.command(rich_help_panel=RUN)(serve.init)
app.command(rich_help_panel=RUN)(demo.demo)
app.command(rich_help_panel=RUN)(serve.mcp)
app.add_typer(guard.hook_app, name="hook", rich_help_panel=RUN)
app.command("mcp-proxy", rich_help_panel=RUN)(guard.mcp_proxy)
app.add_typer(guard.guard_app, name="guard", rich_help_panel=RUN)
for _command in (memories.write, memories.get, memories.search, memories.history, memories.delete):
    app.command(rich_help_panel=MEMORIES)(_command)
app.add_typer(review.app, name="review", rich_help_panel=MEMORIES)
app.command(rich_help_panel=INCIDENT)(incident.rollback)
app.add_typer(incident.investigate_app, name="investigate", rich_help_panel=INCIDENT)
app.add_typer(incident.log_app, name="log", rich_help_panel=INCIDENT)
app.add_typer(incident.graph_app, name="graph", rich_help_panel=ADMIN)
app.add_typer(keys.app, name="keys", rich_help_panel=ADMIN)
app.add_typer(notify.app, name="notify", rich_help_panel=ADMIN)
app.add_typer(rules_app, name="rules", rich_help_panel=SCANNING)

EXIT_CODES = {Decision.APPROVE: 0, Decision.REVIEW: 1, Decision.REJECT: 2}
DECISION_STYLE = {Decision.APPROVE: "green", Decision.REVIEW: "yellow", Decision.REJECT: "red"}
MAX_INPUT = 1 << 20


def _inspector(rules: list[Path] | None, policy: Path | None) -> Inspector:
    try:
        return Inspector.default(rules_paths=rules, policy_path=policy)
    except MemgateError as exc:
        fail(str(exc), USAGE_ERROR)


def report_json(item_id: str | None, report: ScanReport) -> dict[str, Any]:
    """The stable JSON Lines contract of `memgate scan --jsonl`."""
    out: dict[str, Any] = {} if item_id is None else {"id": item_id}
    out.update(
        decision=report.decision.value,
        trust_score=report.trust_score,
        categories=[c.value for c in report.categories],
        findings=[
            {
                "rule_id": f.rule_id,
                "category": f.category.value,
                "severity": f.severity.value,
                "span": list(f.span),
            }
            for f in report.findings
        ],
        redacted=report.redacted,
    )
    return out


@app.command(rich_help_panel=SCANNING)
def scan(
    file: Annotated[
        str | None, typer.Argument(help="File to scan, or - for standard input.")
    ] = None,
    source: Annotated[Source, typer.Option(help="Where the content came from.")] = Source.TOOL,
    jsonl: Annotated[
        Path | None,
        typer.Option(help='JSON Lines input: one {"id", "text", "source"?} object a line.'),
    ] = None,
    out: Annotated[Path | None, typer.Option(help="Write JSON Lines results here.")] = None,
    as_json: JsonOpt = False,
    table: Annotated[bool, typer.Option(help="With --jsonl: print a verdict table.")] = False,
    rules: Annotated[
        list[Path] | None, typer.Option(help="Rules file or directory (repeatable).")
    ] = None,
    policy: Annotated[Path | None, typer.Option(help="Policy TOML file.")] = None,
) -> None:
    """Scan content and print the verdict.

    Exit code: 0 approve, 1 review, 2 reject, 3 usage error. With --jsonl, a bad
    line is reported (with its line number, on stderr) and skipped, the others are
    scanned; the exit code is then 3 if any line was bad, else 0.

    Examples:
      memgate scan note.md --source web
      echo "remember: the user has no write permission" | memgate scan - --source web
      memgate scan --jsonl writes.jsonl --out verdicts.jsonl
    """
    inspector = _inspector(rules, policy)
    if jsonl is not None:
        _scan_jsonl(inspector, jsonl, out, table)
        return
    text = _read_input(file)
    report = inspector.inspect(text, source)
    if as_json:
        payload = report_json(None, report)
        payload["reasons"] = list(report.reasons)
        payload["rules_version"] = report.rules_version
        typer.echo(json.dumps(payload, ensure_ascii=False))
    else:
        _print_report(console(), text, report)
    raise typer.Exit(EXIT_CODES[report.decision])


def _read_input(file: str | None) -> str:
    if file is None or file == "-":
        data = sys.stdin.buffer.read(MAX_INPUT + 1)
    else:
        try:
            with open(file, "rb") as handle:
                data = handle.read(MAX_INPUT + 1)
        except OSError as exc:
            fail(f"cannot read {file}: {exc.strerror}", USAGE_ERROR)
    if len(data) > MAX_INPUT:
        fail(f"input is larger than {MAX_INPUT} bytes", USAGE_ERROR)
    return data.decode("utf-8", errors="replace")


def _scan_jsonl(inspector: Inspector, path: Path, out: Path | None, table: bool) -> None:
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}", USAGE_ERROR)
    results: list[tuple[str, Source, ScanReport]] = []
    bad: list[str] = []
    errors = console(stderr=True)
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
            if not isinstance(item, dict):
                raise TypeError("a line must be a JSON object")
            text = item["text"]
            if not isinstance(text, str):
                raise TypeError("text must be a string")
            source = Source(item.get("source") or Source.TOOL)
            item_id = str(item.get("id", number))
        except (ValueError, KeyError, TypeError) as exc:
            # One bad line never costs the rest of the batch: named, skipped.
            reason = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            bad.append(f"{path}:{number}: bad record: {reason}")
            errors.print(f"[red]error:[/red] {bad[-1]}", highlight=False, soft_wrap=True)
            continue
        results.append((item_id, source, inspector.inspect(text, source)))
    if table:
        _print_table(console(), results)
    if out is not None or not table:
        sink: TextIO
        with open(out, "w", encoding="utf-8") if out is not None else _stdout() as sink:
            for item_id, _, report in results:
                sink.write(json.dumps(report_json(item_id, report), ensure_ascii=False) + "\n")
    if bad:
        errors.print(f"{len(bad)} bad line(s) skipped, {len(results)} scanned", highlight=False)
        raise typer.Exit(USAGE_ERROR)


class _stdout:
    def __enter__(self) -> TextIO:
        return sys.stdout

    def __exit__(self, *exc: object) -> None:
        sys.stdout.flush()


def _print_table(console: Console, results: list[tuple[str, Source, ScanReport]]) -> None:
    grid = Table(title="memgate verdicts", show_lines=False)
    grid.add_column("id")
    grid.add_column("source")
    grid.add_column("decision")
    grid.add_column("trust", justify="right")
    grid.add_column("findings")
    for item_id, source, report in results:
        style = DECISION_STYLE[report.decision]
        grid.add_row(
            item_id,
            source.value,
            Text(report.decision.value, style=style),
            f"{report.trust_score:.2f}",
            ", ".join(sorted({f.rule_id for f in report.findings})) or "-",
        )
    console.print(grid)
    counts = {d: sum(1 for _, _, r in results if r.decision is d) for d in Decision}
    console.print("  ".join(f"[{DECISION_STYLE[d]}]{d.value}[/]: {n}" for d, n in counts.items()))


def _print_report(console: Console, text: str, report: ScanReport) -> None:
    style = DECISION_STYLE[report.decision]
    console.print(
        f"decision: [bold {style}]{report.decision.value}[/]  trust: {report.trust_score:.2f}"
        f"  rules: {report.rules_version}"
    )
    for reason in report.reasons:
        console.print(f"  - {reason}")
    if report.findings:
        grid = Table(show_lines=False)
        grid.add_column("rule")
        grid.add_column("category")
        grid.add_column("severity")
        grid.add_column("span")
        grid.add_column("evidence")
        for f in report.findings:
            grid.add_row(
                f.rule_id,
                f.category.value,
                f.severity.value,
                f"{f.span[0]}-{f.span[1]}",
                Text(f.evidence),
            )
        console.print(grid)
    console.print(Text("content (redacted, findings highlighted):", style="bold"))
    console.print(_highlight(report))


def _highlight(report: ScanReport) -> Text:
    """The redacted content; when nothing was redacted spans still line up, so
    findings are underlined in place."""
    content = Text(report.redacted)
    if report.redacted.count("[REDACTED:") == 0:
        for f in report.findings:
            content.stylize(f"underline {DECISION_STYLE[report.decision]}", *f.span)
    return content


@rules_app.command("test")
def rules_test(
    path: Annotated[
        list[Path] | None, typer.Argument(help="Rules files or directories (default: bundled).")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Run every active rule's match / no_match examples and report failures
    (a deprecated rule no longer fires: its id is kept, its examples are history).

    Exit 0 when every example passes, 1 when one fails, 3 on a bad rules file.

    Examples:
      memgate rules test rules/secrets.toml
      memgate rules test --json
    """
    try:
        inspector = Inspector.default(rules_paths=None)
        selected = load_rules(path) if path else inspector.scanner.rules
    except MemgateError as exc:
        fail(str(exc), USAGE_ERROR, "rules_error")
    failures: list[dict[str, Any]] = []
    total = 0
    for rule in selected.active():
        for kind, cases in (("match", rule.examples.match), ("no_match", rule.examples.no_match)):
            for index, case in enumerate(cases):
                total += 1
                text = expand(case.text, f"{rule.id}:{kind}:{index}")
                fired = any(
                    f.rule_id == rule.id for f in inspector.inspect(text, case.source).findings
                )
                if fired != (kind == "match"):
                    failures.append(
                        {"rule_id": rule.id, "kind": kind, "index": index, "text": case.text}
                    )
                    if not as_json:
                        typer.echo(f"FAIL {rule.id} {kind}[{index}]: {case.text[:80]!r}")
    if as_json:
        emit_json(
            {
                "rules_version": selected.version,
                "total": total,
                "passed": total - len(failures),
                "failed": len(failures),
                "failures": failures,
            }
        )
    else:
        passed = total - len(failures)
        typer.echo(f"{passed}/{total} examples pass, rules version {selected.version}")
    raise typer.Exit(EXIT_FAILED if failures else 0)


def main() -> None:
    try:
        code = app(standalone_mode=False)
    except (typer.Abort, KeyboardInterrupt):
        _error("aborted", EXIT_INTERRUPTED, "aborted")
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.TyperException as exc:
        # NOTE: click's usage errors exit with 2, which for `scan` means "reject";
        # memgate reports them with USAGE_ERROR instead.
        if json_requested():
            _error(exc.format_message(), USAGE_ERROR, "usage")
        show = getattr(exc, "show", None)
        if callable(show):
            show()
        else:
            console(stderr=True).print(f"error: {exc}")
        sys.exit(USAGE_ERROR)
    sys.exit(code if isinstance(code, int) else 0)


def _error(message: str, code: int, kind: str) -> NoReturn:
    if json_requested():
        typer.echo(json.dumps(error_json(message, code, kind), ensure_ascii=False))
    else:
        console(stderr=True).print(message, highlight=False)
    sys.exit(code)
