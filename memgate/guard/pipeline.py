"""The decision pipeline: permission matrix → call-chain tracker → parameter
validator → flow check → allow | ask | deny | rewrite (+ warn).

Each layer may object; the strictest objection decides (deny > ask > rewrite >
allow) and names its layer. A deny from the matrix or the chain stops the
pipeline early: nothing later can loosen it.
"""

from __future__ import annotations

import re
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any

from cachetools import LRUCache

from memgate.domain import Category, Source
from memgate.guard.chain import MaskingChains
from memgate.guard.flow import FlowEngine, NetworkxEngine
from memgate.guard.memory_feed import WRITE_TOOL
from memgate.guard.models import (
    SEVERITY,
    FlowReport,
    GuardDecision,
    Layer,
    PathStep,
    ResultRecorded,
    ToolCall,
    ToolResult,
    Verdict,
)
from memgate.guard.params import Leaf, ParamReport, ParamValidator, leaves
from memgate.guard.pins import PinReport, PinStore, ToolListing, split_mcp_name
from memgate.guard.policy import Effect, GuardPolicy, RolePolicy, Rule
from memgate.guard.state import Begin, Counts, GuardState, LocalGuardState
from memgate.guard.trust import TrustCounters, shape_of
from memgate.guard.values import (
    Sighting,
    ValueStore,
    alias_form,
    alias_key,
    decoded_words,
    forms,
    sensitive_values,
    words,
)
from memgate.scanning.scanner import Scanner

MAX_RESULT_CHARS = 512 * 1024
Clock = Callable[[], float]


@dataclass(slots=True)
class _Outcome:
    verdict: Verdict = Verdict.ALLOW
    layer: Layer = Layer.NONE
    reasons: list[str] = field(default_factory=list)
    warn: bool = False
    objections: list[tuple[Verdict, Layer]] = field(default_factory=list)
    hits: dict[str, list[str]] = field(default_factory=dict)
    """Leaf path -> words the flow check matched to values read earlier."""
    matrix_ask: bool = False
    """The matrix said ask because a rule (or the default) says so: the one
    objection accumulated trust may lift."""

    def denied(self) -> bool:
        return self.verdict is Verdict.DENY

    def object(self, verdict: Verdict, layer: Layer, reason: str) -> None:
        self.reasons.append(f"{layer.value}: {reason}")
        self.objections.append((verdict, layer))
        if SEVERITY[verdict] > SEVERITY[self.verdict]:
            self.verdict, self.layer = verdict, layer

    def only_matrix_ask(self) -> bool:
        return self.matrix_ask and all(
            v is Verdict.ASK and layer is Layer.MATRIX for v, layer in self.objections
        )


class Guard:
    """Decides tool calls and learns from their results. Build one per process;
    its state (`state`) is this process's or, on PostgreSQL, every replica's."""

    def __init__(
        self,
        scanner: Scanner,
        policy: GuardPolicy,
        values: ValueStore,
        *,
        clock: Clock = time.time,
        engine: FlowEngine | None = None,
        state: GuardState | None = None,
    ) -> None:
        self.scanner = scanner
        self.policy = policy
        self.values = values
        self.engine: FlowEngine = engine or NetworkxEngine()
        """Where the min cut runs (networkx in memory, or FalkorDB's algo.maxFlow)."""
        self.state: GuardState = state or LocalGuardState(
            values, policy.chain.burst_seconds, shared=values.window_hits()
        )
        """Trust counters, tool pins, the chain's windows, depths and breaker: this
        process's (`LocalGuardState`) or every replica's (`PostgresGuardState`)."""
        self.trust = TrustCounters(self.state)
        self.pins = PinStore(self.state)
        self._shapes: LRUCache[str, tuple[str, str]] = LRUCache(maxsize=50_000)
        """call id -> (shape digest, decision) of calls decided, until their result."""
        self._clock = clock
        self._params = ParamValidator(scanner, policy.params)
        masking = policy.chain.masking
        self._masking = MaskingChains(
            {
                "export": masking.export,
                "read": masking.read,
                "extract": masking.extract,
                "write": masking.write,
                "mask": masking.mask,
            }
        )
        # One decision at a time: the hot window is shared state, and the
        # service runs decisions off its event loop, in worker threads.
        self._lock = threading.Lock()

    # -- deciding ------------------------------------------------------------

    def decide(self, call: ToolCall) -> GuardDecision:
        """The decision on one call, before it runs."""
        with self._lock:
            return self._decide(call)

    def _decide(self, call: ToolCall) -> GuardDecision:
        started = time.perf_counter()
        now = self._clock()
        call_id = call.call_id or f"call_{uuid.uuid4().hex}"
        role_name, role = self.policy.role(call.role)
        agent = call.agent_id or call.session_id or "anonymous"
        out = _Outcome()
        rule = role.rule_for(call.tool)
        shape, readable = shape_of(call.tool, call.input)
        scope = call.task_id or call.session_id or agent
        # One look at the state (one round trip on PostgreSQL): the chain's
        # windows count every attempt, so a flood stays cut.
        snap = self.state.begin(
            Begin(
                now=now, call_id=call_id, parent=call.parent_call_id, agent_key=agent,
                rule_key=f"{agent}\x00{rule.tool}" if rule else None,
                tool_key=f"{agent}\x00{call.tool}", scope=scope, shape=shape,
                mcp=split_mcp_name(call.tool),
            )
        )  # fmt: skip
        agent_count, rule_count, tool_count = snap.agent_count, snap.rule_count, snap.tool_count
        depth = snap.depth

        timings: dict[str, float] = {}
        mark = time.perf_counter()
        self._matrix(call, rule, role_name, rule_count, out)
        mark = _lap(timings, "matrix", mark)
        if not out.denied():
            self._pinned(call, snap.changed, out)
        if not out.denied():
            self._chain_limits(call, role, agent_count, tool_count, depth, out)
            mark = _lap(timings, "chain", mark)
        updated: dict[str, Any] | None = None
        path: list[PathStep] = []
        flow: FlowReport | None = None
        if not out.denied():
            items = leaves(call.input)
            report = self._params.check(call.tool, items)
            mark = _lap(timings, "params", mark)
            for reason in report.deny:
                out.object(Verdict.DENY, Layer.PARAMS, reason)
            for reason in report.ask:
                out.object(Verdict.ASK, Layer.PARAMS, reason)
            destructive = (
                report.destructive
                or bool(rule and rule.destructive)
                or any(fnmatchcase(call.tool, p) for p in self.policy.chain.destructive_tools)
            )
            limit = self.policy.chain.max_destructive_per_task
            if destructive and not out.denied():
                used = snap.destructive
                if used >= limit:
                    out.object(
                        Verdict.DENY,
                        Layer.CHAIN,
                        f"circuit breaker: {used} destructive calls already in task {scope}",
                    )
            if not out.denied():
                updated, path, flow = self._flow(call, call_id, items, report, out)
                _lap(timings, "flow", mark)
            # taken against the limit atomically: another replica may have taken
            # the last one since `begin` read the count
            if (
                destructive
                and out.verdict in (Verdict.ALLOW, Verdict.REWRITE)
                and self.state.take_destructive(scope, limit, now) is None
            ):
                out.object(
                    Verdict.DENY,
                    Layer.CHAIN,
                    f"circuit breaker: {limit} destructive calls already in task {scope}",
                )
                updated = None
            if self.policy.chain.masking.enabled and not out.denied():
                text = " ".join([call.tool, *(leaf.text[:2000] for leaf in items[:50])])
                done = list(snap.masking)
                progress, chain = self._masking.advance(done, call_id, text)
                if progress != done:  # most calls are no step: nothing to write
                    self.state.set_masking(scope, progress, now)
                if chain is not None:
                    out.warn = True
                    out.reasons.append(
                        "chain: warn: masking bypass: export → read → extract → write with no"
                        f" masking step between (calls {', '.join(chain)})"
                    )
        trusted = self._trusted(call, snap.trust, out)
        shown = None
        if out.verdict is Verdict.ASK:
            # The words matched to values read earlier; asks.shown_arguments then
            # runs the scanner over what a reviewer is shown.
            shown = _redacted_input(call.input, set(call.input), out.hits, {})
        return GuardDecision(
            decision=out.verdict,
            warn=out.warn,
            layer=out.layer,
            reasons=tuple(out.reasons),
            updated_input=updated if out.verdict in (Verdict.REWRITE, Verdict.ASK) else None,
            path=tuple(path),
            flow=flow,
            call_id=call_id,
            tool=call.tool,
            role=role_name,
            millis=(time.perf_counter() - started) * 1000,
            timings=timings,
            shape=readable,
            trusted=trusted,
            redacted_input=shown,
        )

    def _pinned(self, call: ToolCall, changed: bool, out: _Outcome) -> None:
        named = split_mcp_name(call.tool)
        effect = self.policy.trust.changed_tool
        if named is None or effect is Effect.ALLOW or not changed:
            return
        out.object(
            Verdict(effect.value),
            Layer.TRUST,
            f"tool {named[1]!r} of MCP server {named[0]!r} changed its description since it"
            " was pinned (a rug pull?): a person must accept the new description",
        )
        if out.verdict is Verdict(effect.value):
            out.layer = Layer.TRUST  # on a tie with the matrix, the change is the reason

    def _trusted(self, call: ToolCall, counts: Counts, out: _Outcome) -> int:
        """Turn a matrix ask into allow for a shape with enough results and no
        denial; the number of results either way."""
        policy = self.policy.trust
        if not policy.enabled:
            return 0
        if (
            out.verdict is Verdict.ASK
            and out.only_matrix_ask()
            and counts.ok >= policy.min_results
            and counts.bad == 0
            and any(fnmatchcase(call.tool, p) for p in policy.tools)
        ):
            out.verdict, out.layer = Verdict.ALLOW, Layer.TRUST
            out.reasons.append(
                f"trust: allowed: {counts.ok} earlier results of this call shape, none denied"
            )
        return counts.ok

    def _matrix(
        self, call: ToolCall, rule: Rule | None, role: str, count: int, out: _Outcome
    ) -> None:
        if rule is None:
            effect = self.policy.default_effect
            out.matrix_ask = effect is Effect.ASK
            if effect is not Effect.ALLOW:
                out.object(
                    Verdict(effect.value),
                    Layer.MATRIX,
                    f"no rule of role {role!r} covers {call.tool!r} (default {effect.value})",
                )
            return
        out.matrix_ask = rule.effect is Effect.ASK
        if rule.effect is not Effect.ALLOW:
            reason = f"role {role!r} rule {rule.tool!r} says {rule.effect.value}"
            out.object(Verdict(rule.effect.value), Layer.MATRIX, reason + _note(rule))
            if rule.effect is Effect.DENY:
                return
        if rule.requires_task and call.task_id is None:
            out.object(Verdict.DENY, Layer.MATRIX, f"rule {rule.tool!r} requires a task context")
        if rule.allowed_keys is not None:
            extra = sorted(set(call.input) - rule.allowed_keys)
            if extra:
                out.object(
                    Verdict.DENY,
                    Layer.MATRIX,
                    f"rule {rule.tool!r} does not allow argument(s) {', '.join(extra)}",
                )
        if rule.max_calls_per_minute is not None and count > rule.max_calls_per_minute:
            out.object(
                Verdict.DENY,
                Layer.MATRIX,
                f"rule {rule.tool!r}: call {count} in a minute, limit {rule.max_calls_per_minute}",
            )
        for pattern in rule.blocked_patterns:
            compiled = re.compile(pattern)
            for leaf in leaves(call.input):
                if compiled.search(leaf.text):
                    out.object(
                        Verdict.DENY,
                        Layer.MATRIX,
                        f"{leaf.path} matches blocked pattern {pattern!r} of rule {rule.tool!r}",
                    )
                    return

    def _chain_limits(
        self,
        call: ToolCall,
        role: RolePolicy,
        agent_count: int,
        tool_count: int,
        depth: int,
        out: _Outcome,
    ) -> None:
        chain = self.policy.chain
        limit = role.max_calls_per_minute or chain.max_calls_per_minute
        if agent_count > limit:
            out.object(
                Verdict.DENY, Layer.CHAIN, f"call {agent_count} in a minute, agent limit {limit}"
            )
        if depth > chain.max_depth:
            out.object(Verdict.DENY, Layer.CHAIN, f"chain depth {depth} > {chain.max_depth}")
        if tool_count >= chain.burst_calls:
            out.warn = True
            out.reasons.append(
                f"chain: warn: {tool_count} calls of {call.tool} within {chain.burst_seconds:g}s"
            )

    def _flow(
        self, call: ToolCall, call_id: str, items: list[Leaf], report: ParamReport, out: _Outcome
    ) -> tuple[dict[str, Any] | None, list[PathStep], FlowReport | None]:
        policy = self.policy.flow
        if not policy.enabled:
            self._flow_off(call, items, report, out)
            return None, [], None
        by_fp: dict[str, list[tuple[Leaf, str]]] = {}
        decoded_form: dict[str, str] = {}
        budget = policy.max_tokens
        fingerprint = self.scanner.fingerprint
        for leaf in items:
            if budget <= 0:
                out.object(
                    Verdict.ASK, Layer.FLOW, f"more than {policy.max_tokens} words to look up"
                )
                break
            found = words(leaf.text, policy.min_token, budget)
            budget -= len(found)
            for word in found:
                by_fp.setdefault(fingerprint(word), []).append((leaf, word))
                if policy.track_pii and "@" in word:
                    key = alias_key(word)
                    if key is not None:
                        by_fp.setdefault(fingerprint(key), []).append((leaf, word))
                # An encoded word is also looked up by what it decodes to: a value
                # known only by its own fingerprint (a memory's, fingerprinted at
                # write time) still matches when sent base64- or hex-encoded.
                for form, inner in decoded_words(word, policy.min_token):
                    fp = fingerprint(inner)
                    by_fp.setdefault(fp, []).append((leaf, word))
                    decoded_form.setdefault(fp, form)
        literal_fps = {f.fingerprint: leaf for leaf, f in report.secrets if f.fingerprint}
        personal_fps = {f.fingerprint: leaf for leaf, f in report.personal if f.fingerprint}
        sightings = self.values.lookup(
            [*by_fp, *literal_fps, *personal_fps], policy.max_reads_per_value
        )
        tainted: dict[str, list[tuple[str, str]]] = {}
        hits: dict[str, list[str]] = {}  # leaf path -> words to redact
        path: list[PathStep] = []
        seen_values: set[tuple[str, str]] = set()
        seen_args: set[tuple[str, str]] = set()
        for s in sightings:
            places = by_fp.get(s.fp) or []
            if not places and s.fp in literal_fps:
                places = [(literal_fps[s.fp], "")]
            elif not places and s.fp in personal_fps:
                places = [(personal_fps[s.fp], "")]
            for leaf, word in places:
                tainted.setdefault(leaf.arg, []).append((s.call_id, s.value_fp))
                if word:
                    hits.setdefault(leaf.path, []).append(word)
                if (s.call_id, s.value_fp) not in seen_values:
                    seen_values.add((s.call_id, s.value_fp))
                    path.append(_read_step(s))
                if (leaf.path, s.value_fp) in seen_args:
                    continue
                seen_args.add((leaf.path, s.value_fp))
                form = decoded_form.get(s.fp, s.form) if s.form == "literal" else s.form
                path.append(
                    PathStep(
                        kind="arg", call_id=call_id, session_id=call.session_id,
                        tool=call.tool, fingerprint=s.value_fp, form=form, rule_id=s.rule_id,
                        arg=leaf.path,
                    )
                )  # fmt: skip
        known = {s.value_fp for s in sightings} | {s.fp for s in sightings}
        unknown = sorted(
            {
                leaf.path
                for fp, leaf in literal_fps.items()
                if fp not in known and leaf.path not in hits
            }
        )
        for where in unknown:
            if policy.unknown_secret is not Effect.ALLOW:
                out.object(
                    Verdict(policy.unknown_secret.value),
                    Layer.FLOW,
                    f"{where} carries a secret no earlier result showed",
                )
        out.hits = hits
        if not tainted:
            return None, path, None
        cut = self.engine.decide(call.input.keys(), tainted, policy.destination_args | _CODE_ARGS)
        flow = FlowReport(
            value=cut.value,
            block_cost=cut.block_cost,
            tainted_args=tuple(sorted(tainted)),
            cut_args=cut.cut_args,
            engine=cut.engine,
        )
        reads = sorted({_source(s) for s in sightings})
        if cut.blocked:
            out.object(
                Verdict.DENY,
                Layer.FLOW,
                f"argument(s) {', '.join(sorted(tainted))} carry sensitive values read by "
                f"{'; '.join(reads)}; max flow {cut.value:g} = block cost {cut.block_cost}",
            )
            return None, path, flow
        updated = _redacted_input(call.input, set(cut.cut_args), hits, report.redacted)
        out.object(
            Verdict.REWRITE,
            Layer.FLOW,
            f"redacting {', '.join(cut.cut_args)}: sensitive values read by {'; '.join(reads)};"
            f" max flow {cut.value:g} < block cost {cut.block_cost}",
        )
        return updated, path, flow

    def _flow_off(
        self, call: ToolCall, items: list[Leaf], report: ParamReport, out: _Outcome
    ) -> None:
        """The flow check cut off: the guard cannot tell where a value came from,
        so a call carrying a secret or personal data, or naming a destination,
        is asked about."""
        destinations = sorted(
            leaf.path
            for leaf in items
            if leaf.arg.lower() in self.policy.flow.destination_args and leaf.text.strip()
        )
        carried = sorted({leaf.path for leaf, _ in (*report.secrets, *report.personal)})
        if carried:
            out.object(
                Verdict.ASK,
                Layer.FLOW,
                f"flow check off: cannot judge where the sensitive value(s) in"
                f" {', '.join(carried)} came from",
            )
        elif destinations:
            out.object(
                Verdict.ASK,
                Layer.FLOW,
                f"flow check off: cannot judge what is sent to {', '.join(destinations)}",
            )

    # -- learning --------------------------------------------------------------

    def record_result(self, result: ToolResult) -> ResultRecorded:
        """Fingerprint the sensitive values in a tool's output (and their
        encodings) and link them to the call."""
        with self._lock:
            return self._record_result(result)

    def _record_result(self, result: ToolResult) -> ResultRecorded:
        now = self._clock()
        texts = [leaf.text for leaf in leaves({"output": result.output})]
        budget = MAX_RESULT_CHARS
        rows: list[Sighting] = []
        found: set[str] = set()
        split_min = self.policy.flow.split_min_length
        tracked = {Category.SECRET}
        if self.policy.flow.track_pii:
            tracked.add(Category.PII)
        for text in texts:
            if budget <= 0:
                break
            text = text[:budget]
            budget -= len(text)
            scanned = self.scanner.scan(text, Source.TOOL)
            if not any(f.category in tracked for f in scanned.findings):
                continue
            kinds = {f.fingerprint: f.category for f in scanned.findings if f.fingerprint}
            for value, rule_id, value_fp in sensitive_values(
                text, scanned.redacted, self.scanner.fingerprint
            ):
                if len(value) < 4 or kinds.get(value_fp, Category.SECRET) not in tracked:
                    continue
                found.add(value_fp)
                encodings = forms(value, split_min)
                if "@" in value and (key := alias_form(value)) is not None:
                    encodings["alias"] = key
                for form, encoded in encodings.items():
                    if form.startswith("half") and len(encoded) < self.policy.flow.min_token:
                        continue
                    rows.append(
                        Sighting(
                            fp=self.scanner.fingerprint(encoded), value_fp=value_fp, form=form,
                            rule_id=rule_id, call_id=result.call_id, session_id=result.session_id,
                            agent_id=result.agent_id, tool=result.tool, at=now,
                        )
                    )  # fmt: skip
        self.values.add(rows)
        self._earn_trust(result, now)
        return ResultRecorded(
            call_id=result.call_id, values=len(found), fingerprints=tuple(sorted(found)),
            forms=len(rows),
        )  # fmt: skip

    def _earn_trust(self, result: ToolResult, now: float) -> None:
        """A result of a call that was decided and not denied (allowed, rewritten,
        or asked about and then run: a person approved it) counts for its shape."""
        shape = self._shapes.get(result.call_id)
        if shape is None:
            decided = self.values.decision(result.call_id)
            if decided is None:
                return  # a result of a call the guard never decided earns nothing
            shape = (shape_of(result.tool, result.input)[0], decided)
        digest, decided = shape
        if decided != Verdict.DENY.value and self.policy.trust.enabled:
            self.trust.count(digest, result.tool, now, ok=1)
        self._shapes.pop(result.call_id, None)

    def remember(self, call: ToolCall, decision: GuardDecision) -> None:
        """Keep the decided call durably (the history behind the hot window); a
        denied call counts against its shape's trust."""
        with self._lock:
            now = self._clock()
            self.values.record_call(
                decision.call_id, call.session_id, call.agent_id, call.tool, now,
                decision.decision.value, decision.layer.value,
            )  # fmt: skip
            digest = shape_of(call.tool, call.input)[0]
            self._shapes[decision.call_id] = (digest, decision.decision.value)
            if decision.decision is Verdict.DENY and self.policy.trust.enabled:
                self.trust.count(digest, call.tool, now, bad=1)

    # -- tool descriptions -----------------------------------------------------

    def pin_tools(self, listing: ToolListing) -> PinReport:
        """Record a server's tool listing: pin new tools, mark changed ones."""
        with self._lock:
            return self.pins.report(listing, self._clock())

    def close(self) -> None:
        """Close the state and the value store."""
        self.state.close()
        self.values.close()


_CODE_ARGS = frozenset({"command", "cmd", "script", "code", "sql", "query"})
"""Arguments that are the action itself: redacting them changes what runs."""


def _lap(timings: dict[str, float], layer: str, since: float) -> float:
    now = time.perf_counter()
    timings[layer] = round((now - since) * 1000, 4)
    return now


def _note(rule: Rule) -> str:
    return f" ({rule.note})" if rule.note else ""


def _source(s: Sighting) -> str:
    """Where a value was seen, for a reason line."""
    where = f"in session {s.session_id or '?'}"
    if s.memory_id is not None:
        verb = "written into" if s.tool == WRITE_TOOL else "read from"
        return f"{s.tool} ({verb} memory {s.memory_id}) {where}"
    return f"{s.tool or '?'} {where}"


def _read_step(s: Sighting) -> PathStep:
    return PathStep(
        kind="write" if s.memory_id is not None and s.tool == WRITE_TOOL else "read",
        memory_id=s.memory_id,
        call_id=s.call_id,
        session_id=s.session_id,
        tool=s.tool,
        fingerprint=s.value_fp,
        form="literal",
        rule_id=s.rule_id,
        at=s.at,
    )


def _redacted_input(
    arguments: dict[str, Any],
    cut: set[str],
    hits: dict[str, list[str]],
    redacted: dict[str, str],
) -> dict[str, Any]:
    """The arguments with every matched value in the cut ones replaced by a tag."""

    def walk(path: str, value: Any) -> Any:
        if isinstance(value, str):
            text = redacted.get(path, value)
            for word in sorted(set(hits.get(path, ())), key=len, reverse=True):
                text = text.replace(word, "[REDACTED:guard]")
            return text
        if isinstance(value, dict):
            return {k: walk(f"{path}.{k}", v) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(f"{path}[{i}]", v) for i, v in enumerate(value)]
        return value

    return {k: (walk(k, v) if k in cut else v) for k, v in arguments.items()}
