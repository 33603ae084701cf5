"""What the tool calls of a coding session establish: root causes and the user's answers.

A postmortem worth keeping is the cause a session *established*, not its first guess. The
sequence is visible in the transcript: a run fails (a ``[tool error]`` or a result that
reports failures), the agent states a cause ("The LiveView runs in a separate process that
can't access the test sandbox."), and a later run passes. Each failure resets nothing; a
new diagnosis replaces the previous one, so the cause stated last before the passing run
is the one kept. Without a passing run (or with only hedged guesses) nothing is proposed.

AskUserQuestion answers arrive as a tool result ("User has answered your questions:
"Q"="A""): each answer is a decision the user made.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass

from madohub_memory.extraction.base import TurnView
from madohub_memory.extraction.sentences import CJK

_RESULT = re.compile(r"^\[tool (?P<kind>error|result)\]\s?(?P<body>.*)$")
_CALL = re.compile(r"^\[tool (?P<name>[\w.-]+)\]\s?(?P<input>.*)$")
_NOT_A_RUN = re.compile(
    r"doesn't want to proceed|tool use was rejected|<tool_use_error>|File does not exist|has been (?:updated|created)"
    r"|File created successfully|User has answered", re.I)
_FAILED = re.compile(
    r"\b[1-9]\d* (?:failures?|failed|errors?|failing)\b|\bFAILED\b|\bFAIL\b|Traceback \(most recent|\b\w*Error:|"
    r"\berror(?:\[\w+\])?:|\bcompilation error|\bBUILD FAILED|exit code [1-9]|Exit code [1-9]|npm ERR!|command not found"
    r"|失败|错误")
_PASSED = re.compile(
    r"\b0 failures\b|\b0 failed\b|\b\d+ (?:tests? )?passed\b|\ball (?:\d+ )?tests? pass|\bTests?:\s+\d+ passed|\bOK\b"
    r"|✓|✔|\bPASS\b|no issues|0 errors|found no|succeeded|successfully|\bpassed\b|通过|成功")
_CAUSE = re.compile(
    r"\b(?:root cause|the (?:real |actual |underlying )?(?:issue|problem|error|bug|failure|cause|culprit) (?:is|was)"
    r"|because|caused by|due to|the reason|turns out|(?:is|was|are|were) missing|missing from"
    r"|(?:isn't|wasn't|aren't|is not|was not) (?:configured|set|installed|imported|defined|loaded|registered|allowed|"
    r"supported|running|available|exported)|(?:doesn't|does not|didn't|can't|cannot|couldn't) (?:support|exist|have|"
    r"access|find|resolve|see|reach|load)|needs? `|requires? `|expects? `)\b|原因是|根因|问题出在|因为",
    re.I)
_GUESS = re.compile(
    r"\b(?:might|may|maybe|perhaps|probably|possibly|likely|could be|seems?|appears?|i think|i suspect|let me|let's"
    r"|i'll|i will|check whether|not sure|try|because of how|something|somehow)\b|[?？]\s*$|可能|也许|试试", re.I)
_SENTENCE = re.compile(r"(?<=[.!])\s+|(?<=[。！；])|\n+")
_ANSWERS = re.compile(r"\"(?P<q>[^\"]{3,300})\"=\"(?P<a>[^\"]{1,300})\"")
MAX_DIAGNOSIS_CHARS = 280


@dataclass(frozen=True)
class Finding:
    content: str
    kind: str
    confidence: float
    turn_id: str


def _results(turn: TurnView) -> list[tuple[str, str]]:
    out = []
    for line in turn.content.splitlines():
        m = _RESULT.match(line.strip())
        if m is not None:
            out.append((m.group("kind"), m.group("body")))
    return out


def _verdict(kind: str, body: str) -> str | None:
    """"fail", "pass" or ``None`` (not a run: a file write, a rejection, a read)."""
    if _NOT_A_RUN.search(body):
        return None
    if kind == "error" or _FAILED.search(body):
        return "fail"
    if _PASSED.search(body):
        return "pass"
    return None


def _diagnosis(turn: TurnView) -> str | None:
    """The cause an assistant turn states outright (the last such sentence of the turn)."""
    found = None
    for line in turn.content.splitlines():
        if line.startswith("[tool "):
            continue
        for sentence in _SENTENCE.split(line):
            sentence = sentence.strip(" -*>")
            long_enough = len(sentence.split()) >= 4 or len(CJK.findall(sentence)) >= 8
            if long_enough and len(sentence) <= MAX_DIAGNOSIS_CHARS and _CAUSE.search(sentence) \
                    and not _GUESS.search(sentence):
                found = sentence
    return found


def _command(turn: TurnView) -> str | None:
    for line in reversed(turn.content.splitlines()):
        m = _CALL.match(line.strip())
        if m is not None and m.group("name") not in ("Read", "Edit", "Write", "Glob", "Grep", "TodoWrite"):
            command = re.sub(r"\s*\|\s*(?:tail|head|grep|less|tee)\b.*$", "", m.group("input"))
            command = re.sub(r"\s*\d?>&\d\s*|\s*\d?>\s*/dev/null", " ", command).strip()
            return command[:80].strip()
    return None


def _postmortem(command: str | None, diagnosis: str) -> str:
    zh = len(CJK.findall(diagnosis)) > len(diagnosis) // 4
    diagnosis = diagnosis.rstrip(" .:;。；：") + ("。" if zh else ".")
    if not command:
        return diagnosis
    if zh:
        return f"`{command}` 失败：{diagnosis}"
    lead = f"`{command}` failed"
    if re.match(r"(?:The|A|An|It|This|That|These|Those)\b", diagnosis) and not _CAUSE.match(diagnosis):
        return f"{lead} because {diagnosis[0].lower()}{diagnosis[1:]}"
    return f"{lead}: {diagnosis}"


def _signature(body: str) -> str:
    """A failure without its numbers (seeds, timings, counts), to tell one error from another."""
    return re.sub(r"\d+|\s+", " ", body).strip()[:400]


def _same_failure(a: str, b: str) -> bool:
    """Build and runner noise ("Compiling 4 files… Running ExUnit with seed…") opens most
    failures alike; the error is what follows, so only the parts after the common opening
    are compared."""
    prefix = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    rest_a, rest_b = a[prefix:].strip(), b[prefix:].strip()
    if len(rest_a) < 15 and len(rest_b) < 15:
        return True
    return difflib.SequenceMatcher(None, rest_a, rest_b).ratio() >= 0.7


def root_causes(turns: Sequence[TurnView]) -> list[Finding]:
    """Causes stated after a failing run and confirmed by what came next: a passing run, or
    a failure that is a different error (the stated cause was fixed, the next one shows).
    A cause followed by the same failure again was a wrong guess and is dropped."""
    findings: list[Finding] = []
    failure: str | None = None  # signature of the failure being worked on
    command: str | None = None
    failed_command: str | None = None
    diagnosis: tuple[str, str, str] | None = None  # sentence, turn id, failure it addresses

    def confirm() -> None:
        if diagnosis is not None:
            findings.append(Finding(_postmortem(failed_command, diagnosis[0]), "postmortem", 0.55, diagnosis[1]))

    for turn in turns:
        if turn.role == "assistant":
            if failure is not None:
                found = _diagnosis(turn)
                if found is not None:
                    diagnosis = (found, turn.id, failure)
            command = _command(turn) or command
        elif turn.role == "tool":
            for kind, body in _results(turn):
                verdict = _verdict(kind, body)
                if verdict == "fail":
                    signature = _signature(body)
                    if diagnosis is not None and not _same_failure(diagnosis[2], signature):
                        confirm()
                    if diagnosis is not None:
                        diagnosis = None
                    failure, failed_command = signature, command
                elif verdict == "pass" and failure is not None:
                    confirm()
                    failure, diagnosis = None, None
    return findings


def passes_later(turns: Sequence[TurnView], after_id: str) -> bool:
    """A run passes after the turn ``after_id`` in this exchange (a reported problem that the
    exchange itself resolved is not an open problem)."""
    seen = False
    for turn in turns:
        if turn.id == after_id:
            seen = True
        elif seen and turn.role == "tool" and any(_verdict(k, b) == "pass" for k, b in _results(turn)):
            return True
    return False


def question_answers(turns: Sequence[TurnView], subject: str = "User", zh: bool = False) -> list[Finding]:
    """Each AskUserQuestion answer as a decision ("User chose "No rig" when asked: Which rig…")."""
    findings = []
    for turn in turns:
        if turn.role != "tool" or "User has answered your questions" not in turn.content:
            continue
        for m in _ANSWERS.finditer(turn.content):
            question = m.group("q").strip().rstrip("?").strip()
            answer = m.group("a").strip()
            mark = "" if question.endswith((")", "）", ".", "!", "?", "？")) else "?"  # "…(should I?)" ends there
            content = (f"被问到“{question}”时，{subject}选择了“{answer}”。" if zh
                       else f'{subject} chose "{answer}" when asked: {question}{mark}')
            findings.append(Finding(content, "decision", 0.6, turn.id))
    return findings
