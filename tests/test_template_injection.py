"""A server-side template compiled from outside input runs the template language's code
(SSTI): Ruby ERB, EJS, Handlebars, Nunjucks, Pug, Liquid, lodash, Flask's
render_template_string, through the public Inspector (MG-EFF-006); outside input passed
as the template's data, or a template read from the app's own files, is what templates
are for."""

from __future__ import annotations

import pytest

from memgate.domain import Decision, Source
from memgate.trust.inspector import Inspector

SOURCES = ["params[:tpl]", "req.query.tpl", "req.body.template", "request.args['t']"]
SINKS = [
    "ERB.new({s}).result(binding)",
    "require('ejs').render({s}, {{}})",
    "ejs.compile({s})({{}})",
    "Handlebars.compile({s})({{}})",
    "nunjucks.renderString({s}, {{}})",
    "pug.render({s})",
    "_.template({s})({{}})",
    "render_template_string({s})",
]
SAFE = [
    "tpl = ERB.new(File.read('views/card.erb')).result(binding)",
    "res.send(ejs.render(fs.readFileSync('views/hello.ejs', 'utf8'), {{ name: req.query.name }}))",
    "const t = Handlebars.compile(source); res.send(t({{ user: req.user }}));",
    "return render_template_string(PAGE, name=request.args['name'])",
]


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return Inspector.default()


CASES = [
    (sink, source)
    for sink in SINKS
    for source in SOURCES
    # Flask's function takes Flask's request; the others any framework's input
    if not sink.startswith("render_template_string") or source.startswith("request.")
]


@pytest.mark.parametrize(("sink", "source"), CASES)
def test_template_from_outside_input_is_rejected(
    inspector: Inspector, sink: str, source: str
) -> None:
    text = "handler:\n  " + sink.format(s=source)
    report = inspector.inspect(text, Source.TOOL)
    assert "MG-EFF-006" in {f.rule_id for f in report.findings}, text
    assert report.decision is Decision.REJECT


@pytest.mark.parametrize("text", SAFE)
def test_templates_from_files_with_outside_data_pass(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text.format(), Source.TOOL)
    assert "MG-EFF-006" not in {f.rule_id for f in report.findings}, text
