"""The guard in front of Python tools (a real Guard: the scanner, the bundled
policy, SQLite): the sandbox scenarios and the masking-bypass chain through the
`guarded` decorator, a LangGraph ToolNode running a guarded LangChain tool, and
an OpenAI Agents SDK agent (its ScriptedModel) whose function tool carries the
memgate tool guardrails."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from memgate.adapters.guard_tools import (
    ToolCallDenied,
    ToolCallNeedsApproval,
    ToolGuard,
    guard_langchain_tool,
    guarded,
    openai_tool_guardrails,
)
from memgate.guard import Guard, GuardPolicy, ValueStore
from memgate.scanning import BUILTIN_ANALYZERS, Scanner, load_rules

SCANNER = Scanner(load_rules(), BUILTIN_ANALYZERS, fingerprint_key=b"guard-tools-tests")
STRIPE = "sk_live_" + "3nWq8Zp5Lk2Xr7Tv9Yb1Hc4M"


@pytest.fixture
def guard(tmp_path: Path) -> Iterator[Guard]:
    values = ValueStore(tmp_path / "guard.sqlite3")
    yield Guard(SCANNER, GuardPolicy.load(), values)
    values.close()


def test_the_sandbox_scenarios_through_the_decorator(guard: Guard) -> None:
    ran: list[str] = []
    analyst = ToolGuard(guard, agent_id="reporting", role="analyst", session_id="s1")

    @guarded(analyst, name="db.query")
    def query(sql: str, params: list[Any] | None = None) -> list[dict[str, int]]:
        ran.append(sql)
        return [{"n": 1}]

    @guarded(analyst, name="db.execute")
    def execute(sql: str) -> int:
        ran.append(sql)
        return 1

    assert query("SELECT count(*) FROM orders") == [{"n": 1}]
    with pytest.raises(ToolCallDenied, match=r"db\.\*"):
        execute("UPDATE orders SET paid = 1")
    with pytest.raises(ToolCallDenied, match="SQL injection"):
        query("SELECT * FROM users WHERE name = ?", params=["' OR 1=1 --"])
    # a flood: the analyst's db.query rule allows 30 a minute (two came above)
    outcomes = []
    for i in range(35):
        try:
            query(f"SELECT {i}")
            outcomes.append("ok")
        except ToolCallDenied:
            outcomes.append("denied")
    assert outcomes.index("denied") == 28  # the 31st db.query call of the minute
    assert set(outcomes[28:]) == {"denied"}
    # ops may execute, but only inside a task
    ops = ToolGuard(guard, agent_id="runbook", role="ops", session_id="s2")
    ops_execute = guarded(ops, name="db.execute")(lambda sql: ran.append(sql) or 1)
    with pytest.raises(ToolCallDenied, match="requires a task context"):
        ops_execute("DELETE FROM sessions WHERE expired")
    ops.task_id = "INC-42"
    assert ops_execute("DELETE FROM sessions WHERE expired") == 1
    assert "UPDATE orders SET paid = 1" not in ran


def test_a_rewrite_runs_with_the_redacted_argument(guard: Guard) -> None:
    tools = ToolGuard(guard, session_id="wednesday")
    reader = ToolGuard(guard, session_id="monday")
    seen: dict[str, Any] = {}

    @guarded(reader, name="Read")
    def read(file_path: str) -> str:
        return f"STRIPE_KEY={STRIPE}\n"

    @guarded(tools, name="dns.update")
    async def update(record: str, txt: str, ttl: int) -> str:
        seen.update(record=record, txt=txt, ttl=ttl)
        return "ok"

    read("/repo/.env")
    assert asyncio.run(update("_acme-challenge", f"token={STRIPE}", 300)) == "ok"
    assert seen["record"] == "_acme-challenge" and seen["ttl"] == 300
    assert STRIPE not in seen["txt"] and seen["txt"].startswith("token=[REDACTED")


def test_the_masking_bypass_chain_warns(guard: Guard) -> None:
    steps = [
        ("Bash", {"command": "psql app -c \"\\copy customers TO 'customers.csv' CSV HEADER\""}),
        ("Read", {"file_path": "customers.csv"}),
        ("Bash", {"command": "grep -oE '[0-9]{3}-[0-9]{2}-[0-9]{4}' customers.csv > ids.txt"}),
        ("Bash", {"command": 'sqlite3 app.db "CREATE TABLE ids_copy (id TEXT)"'}),
    ]

    def run(session: str, calls: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, bool]]:
        tools = ToolGuard(guard, session_id=session)
        out = []
        for tool, arguments in calls:
            decision = tools.decide(tool, arguments)
            out.append((decision.decision.value, decision.warn))
        return out

    bypass = run("export-1", steps)
    assert [d for d, _ in bypass] == ["allow"] * 4  # every step is allowed ...
    assert [w for _, w in bypass] == [False, False, False, True]  # ... the whole warns
    masked = [*steps[:2], ("Bash", {"command": "python scripts/mask_pii.py customers.csv"}),
              *steps[2:]]  # fmt: skip
    assert [w for _, w in run("export-2", masked)] == [False] * 5
    decision = ToolGuard(guard, session_id="export-3").decide(*steps[0])
    assert not decision.warn


def test_a_langgraph_tool_node_runs_a_guarded_tool(guard: Guard) -> None:
    from langchain_core.messages import AIMessage
    from langchain_core.tools import tool
    from langgraph.graph import END, START, MessagesState, StateGraph
    from langgraph.prebuilt import ToolNode

    ran: list[str] = []

    @tool("Bash")
    def run_shell(command: str) -> str:
        """Run a shell command."""
        ran.append(command)
        return "done"

    guarded_tool = guard_langchain_tool(run_shell, ToolGuard(guard, session_id="lg"))
    builder = StateGraph(MessagesState)
    builder.add_node("tools", ToolNode([guarded_tool]))
    builder.add_edge(START, "tools")
    builder.add_edge("tools", END)
    node = builder.compile()
    calls = [
        {"name": "Bash", "args": {"command": "git status"}, "id": "t1", "type": "tool_call"},
        {"name": "Bash", "args": {"command": "pip install reqeusts"}, "id": "t2",
         "type": "tool_call"},
    ]  # fmt: skip
    out = node.invoke({"messages": [AIMessage(content="", tool_calls=calls)]})
    answers = {m.tool_call_id: m.content for m in out["messages"][1:]}
    assert answers["t1"] == "done"
    assert "memgate denied Bash" in answers["t2"] and "typosquat" in answers["t2"]
    assert ran == ["git status"]


def test_an_openai_agent_with_memgate_tool_guardrails(guard: Guard) -> None:
    from agents import Agent, Runner, function_tool
    from agents.testing.model import ScriptedModel, assistant_message, function_call

    tools = ToolGuard(guard, session_id="oa", role="analyst")
    check, report = openai_tool_guardrails(tools)
    ran: list[str] = []

    def query(sql: str) -> str:
        """Query the analytics database."""
        ran.append(sql)
        return "42 rows"

    db_query = function_tool(
        query, name_override="db.query", tool_input_guardrails=[check],
        tool_output_guardrails=[report],
    )  # fmt: skip
    model = ScriptedModel(
        [
            [function_call("db.query", {"sql": "SELECT count(*) FROM orders"}, call_id="c1")],
            [function_call("db.query", {"sql": "SELECT 1 WHERE a='' OR 1=1 --'"}, call_id="c2")],
            [assistant_message("finished")],
        ]
    )
    agent = Agent(name="analyst", model=model, tools=[db_query])
    result = asyncio.run(Runner.run(agent, "count the orders"))
    assert result.final_output == "finished"
    assert ran == ["SELECT count(*) FROM orders"]
    outputs = [
        i.output for i in result.new_items if getattr(i, "type", "") == "tool_call_output_item"
    ]
    assert outputs[0] == "42 rows"
    assert "memgate denied this call" in str(outputs[1]) and "SQL injection" in str(outputs[1])


def test_ask_raises_needs_approval(guard: Guard) -> None:
    tools = ToolGuard(guard, session_id="s")
    unknown = guarded(tools, name="mcp__crm__export")(lambda: "x")
    with pytest.raises(ToolCallNeedsApproval, match="approval"):
        unknown()
