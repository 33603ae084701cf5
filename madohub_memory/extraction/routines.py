"""The project's own commands, read from what the agent runs.

A developer wants the next session to know how this project is checked ("`mix compile
--warnings-as-errors`, `mix test`, `mix credo --strict`") and how work is closed ("`bd close
<id>`, `bd sync`, `git push`"). Both are visible in the tool calls of an exchange. Commands
are normalised so that runs on different files read the same (``npm test -- env.test.ts
2>&1 | tail -20`` -> ``npm test``), and a candidate needs two distinct check commands, or a
tracker command next to a push, so that a single ad-hoc run proposes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from madohub_memory.extraction.base import TurnView

_CALL = re.compile(r"^\[tool (?:Bash|bash|shell|Shell|run_command|execute_command|terminal)\]\s?(?P<cmd>.+)$")
_CHAIN = re.compile(r"\s*(?:&&|\|\||;)\s*")
_PIPE_TAIL = re.compile(r"\s*\|.*$")
_REDIRECT = re.compile(r"\s*\d?>&?\d?\s*\S*|\s*2>&1")
_ENV_PREFIX = re.compile(r"^(?:[A-Z_][A-Z0-9_]*=\S+\s+)+")
_CHECK = re.compile(
    r"^(?:(?:npx|pnpm|yarn|bunx?|uv run|poetry run|python -m|python3 -m|bundle exec|mix|cargo|go|dotnet|gradle|"
    r"\./gradlew|mvn|make|just|task|npm run|pnpm run|yarn run|npm|deno|rake|composer|php artisan)\s+)?"
    r"(?:test|tests|check|lint|typecheck|type-check|tsc|eslint|prettier --check|ruff(?: check| format --check)?|mypy|"
    r"pyright|flake8|pylint|black --check|pytest|jest|vitest|mocha|credo|dialyzer|clippy|fmt --check|vet|"
    r"compile --warnings-as-errors|build|rubocop|phpunit|phpstan|golangci-lint|test:\w+|lint:\w+|format:check|"
    r"quality|ci|verify|tox|nox|hatch test|ctest)\b")
_TRACKER = re.compile(
    r"^(?:bd|beads|gh (?:issue|pr)|glab (?:issue|mr)|jira|linear|tea (?:issue|pr)|hub (?:issue|pr)|git-bug|taskwarrior)\s+"
    r"(?:update|close|sync|create|start|done|resolve|merge|status|claim|ready|comment)\b")
_PUSH = re.compile(r"^git (?:push|commit)\b")
_MIGRATE = re.compile(
    r"^(?:(?:npx|pnpm|yarn|uv run|poetry run|python -m|python3 -m|bundle exec|php)\s+)?"
    r"(?:mix ecto\.migrate|mix ash\.migrate|manage\.py migrate|alembic upgrade|prisma migrate (?:dev|deploy)"
    r"|rails db:migrate|rake db:migrate|knex migrate:latest|sequelize db:migrate|artisan migrate|diesel migration run"
    r"|goose up|flyway migrate|dbmate up|supabase db push|drizzle-kit (?:push|migrate))\b")
_COMMIT_MSG = re.compile(r"git commit\b.*?-m\s+[\"']?(?:\$\(cat <<'?EOF'?\s*)?(?P<msg>[^\"\n]{5,140})")
_CONVENTIONAL = re.compile(r"^(?:feat|fix|chore|docs|refactor|test|perf|build|ci|style)(?:\([^)]*\))?!?:\s\S")
_CREATE = re.compile(r"^(?:bd|beads|gh issue|glab issue|jira issue|linear issue)\s+create\b.*?--title[= ](?P<q>[\"'])(?P<title>.+?)(?P=q)"
                     r"(?:.*?--type[= ](?P<type>\w+))?")
_FILE_ARG = re.compile(r"\s(?:--\s.*$|(?![-])\S*(?:/|\.\w{1,5}\b)\S*)")
_RANK = [("compile", 0), ("build", 0), ("tsc", 1), ("typecheck", 1), ("mypy", 1), ("pyright", 1), ("test", 2),
         ("jest", 2), ("vitest", 2), ("credo", 3), ("lint", 3), ("eslint", 3), ("ruff", 3), ("clippy", 3)]


@dataclass(frozen=True)
class Routine:
    content: str
    kind: str
    confidence: float
    turn_id: str


def commands(turn: TurnView) -> list[str]:
    """The shell commands an assistant turn runs, split on ``&&``/``;``, without ``cd`` steps."""
    out = []
    for line in turn.content.splitlines():
        m = _CALL.match(line.strip())
        if m is None:
            continue
        for part in _CHAIN.split(m.group("cmd").rstrip("…")):
            part = _ENV_PREFIX.sub("", part.strip())
            if part and not part.startswith(("cd ", "echo ", "export ", "source ")):
                out.append(part)
    return out


def normalise(command: str) -> str:
    """``npm test -- env.test.ts 2>&1 | tail -20`` -> ``npm test``."""
    command = _PIPE_TAIL.sub("", command)
    command = _REDIRECT.sub("", command)
    command = _FILE_ARG.sub("", command)
    command = re.sub(r"\s\.(?=\s|$)|\s-(?:q|v|vv|x|s)\b", "", command)  # "." and verbosity flags
    return " ".join(command.split())


def _tracker_form(command: str) -> str:
    """``bd close spotter-gqc.6 --reason="…"`` -> ``bd close <id>``."""
    command = _REDIRECT.sub("", _PIPE_TAIL.sub("", command))
    command = re.sub(r"\s--?\w[\w-]*=(?:\"[^\"]*\"|'[^']*'|\S+)", "", command)
    command = re.sub(r"\s(?:\"[^\"]*\"|'[^']*')", "", command)
    words = command.split()
    if words[:1] == ["git"]:
        return " ".join(words[:2])
    head = words[:3] if words[0] in ("gh", "glab", "tea", "hub") else words[:2]
    rest = words[len(head):]
    return " ".join(head + (["<id>"] if rest and not rest[0].startswith("-") else []))


def _subject_line(message: str) -> str:
    """The subject of a commit message whose newlines were lost: up to a closing "(issue)"
    followed by the body, else 72 characters at a word boundary, no half-open "(…"."""
    message = message.strip().rstrip("…").strip()
    m = re.match(r"^(.{10,100}?\([^)]{1,40}\))(?=\s+[A-Z]|$)", message)
    if m is not None:
        return m.group(1)
    if len(message) > 72:
        message = message[:72].rsplit(" ", 1)[0]
    if message.count("(") > message.count(")"):
        message = message[: message.rfind("(")].rstrip()
    return message


def _rank(command: str) -> tuple[int, str]:
    return next((r for word, r in _RANK if word in command), 4), command


_TEMPLATES = {
    "checks": ("Checks run in this project: {}.", "本项目运行的检查：{}。"),
    "migrate": ("Database migrations in this project are applied with `{}`.", "本项目用 `{}` 执行数据库迁移。"),
    "commits": ('Commit messages in this project use conventional prefixes, e.g. "{}".', "本项目的提交信息使用约定式前缀，例如“{}”。"),
    "created": ("Created in the tracker: {}.", "在任务跟踪中创建了：{}。"),
    "workflow": ("Workflow in this project: {}.", "本项目的工作流程：{}。"),
}


def project_routines(turns: Sequence[TurnView], zh: bool = False) -> list[Routine]:
    """The check commands and the close-and-push routine run in this exchange (``zh``: the
    user writes Chinese, so the candidates are written in Chinese)."""

    def say(key: str, value: str) -> str:
        return _TEMPLATES[key][1 if zh else 0].format(value)

    checks: dict[str, str] = {}
    flow: list[str] = []
    pushed = False
    last_id = ""
    migrate: tuple[str, str] | None = None
    commit_style: tuple[str, str] | None = None
    created: list[tuple[str, str, str]] = []
    for turn in turns:
        if turn.role != "assistant":
            continue
        for line in turn.content.splitlines():
            m = _COMMIT_MSG.search(line)
            if m is not None and commit_style is None and _CONVENTIONAL.match(m.group("msg").strip()):
                commit_style = (_subject_line(m.group("msg")), turn.id)
        for command in commands(turn):
            norm = normalise(command)
            created_item = _CREATE.match(command)
            if created_item is not None:
                created.append((created_item.group("type") or "issue", created_item.group("title"), turn.id))
            if _MIGRATE.match(norm) and migrate is None:
                migrate = (norm, turn.id)
            if _CHECK.match(norm) and len(norm) <= 60 and not re.search(r"\s--(?:fix|write)\b", norm):
                checks.setdefault(norm, turn.id)
                last_id = turn.id
            elif _TRACKER.match(command):
                form = _tracker_form(command)
                if form not in flow:
                    flow.append(form)
                last_id = turn.id
            elif _PUSH.match(command):
                form = _tracker_form(command)
                pushed = True
                if form not in flow:
                    flow.append(form)
                last_id = turn.id
    out: list[Routine] = []
    if len(checks) >= 2:
        listed = ("、" if zh else ", ").join(f"`{c}`" for c in sorted(checks, key=_rank))
        out.append(Routine(say("checks", listed), "fact", 0.5, next(iter(checks.values()))))
    if migrate is not None:
        out.append(Routine(say("migrate", migrate[0]), "fact", 0.45, migrate[1]))
    if commit_style is not None:
        out.append(Routine(say("commits", commit_style[0]), "pattern", 0.45, commit_style[1]))
    if created:
        listed = ("；" if zh else "; ").join(f'{kind} "{title}"' for kind, title, _ in created[:5])
        out.append(Routine(say("created", listed), "event", 0.45, created[0][2]))
    trackers = [f for f in flow if not f.startswith("git ")]
    if trackers and pushed:
        steps = ("，然后" if zh else ", then ").join(f"`{f}`" for f in flow)
        out.append(Routine(say("workflow", steps), "pattern", 0.5, last_id))
    return out


# -- one statement per project -----------------------------------------------------------

_LISTED = re.compile(r"`([^`]+)`")
# Statements a project has one of: each pass that sees the checks, the migration command,
# a conventional commit or the close-and-push routine proposes it again, with whatever part
# of it that pass saw.
_ONE_PER_PROJECT = ("checks", "migrate", "commits", "workflow")


def _prefixes() -> list[tuple[str, str, bool]]:
    return [(template.split("{}", 1)[0], key, bool(zh))
            for key in _ONE_PER_PROJECT for zh, template in enumerate(_TEMPLATES[key])]


def listing_prefix(content: str) -> str | None:
    """The fixed start of a statement the project has only one of ("Checks run in this
    project: "), or ``None``: a later pass's version is the same candidate seen again, and
    may widen it (:func:`widen_listing`) instead of proposing a near-duplicate."""
    return next((prefix for prefix, _, _ in _prefixes() if content.startswith(prefix)), None)


def widen_listing(old: str, new: str) -> str | None:
    """``old`` with what ``new`` adds, or ``None`` when it adds nothing: checks are joined
    (in check order); a routine is replaced by a longer one that contains all its steps in
    order; a migration command or a commit example is kept as first seen."""
    found = next(((p, key, zh) for p, key, zh in _prefixes() if old.startswith(p)), None)
    if found is None or not new.startswith(found[0]):
        return None
    prefix, key, zh = found
    have, seen = _LISTED.findall(old[len(prefix):]), _LISTED.findall(new[len(prefix):])
    if not have or not seen:
        return None
    if key == "checks":
        extra = [c for c in seen if c not in have]
        if not extra:
            return None
        listed = ("、" if zh else ", ").join(f"`{c}`" for c in sorted([*have, *extra], key=_rank))
        return _TEMPLATES[key][zh].format(listed)
    if key == "workflow" and len(seen) > len(have):
        steps = iter(seen)
        if all(step in steps for step in have):  # every old step, in the same order
            return new
    return None
