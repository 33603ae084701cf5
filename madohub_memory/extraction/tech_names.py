"""Names of well-known languages, frameworks, databases and tools, to say what a project is built with.

A compaction summary lists "key technical concepts": a mix of the project's stack ("Ash
Framework resources", "AshSqlite data layer", "Phoenix LiveView hooks") and notions of the
session ("OAuth2 Authentication Flow", "Rate Limiting", "TranscriptRenderer message ID
normalization"). Only the first kind is worth a memory of its own ("the project is built
with Phoenix LiveView, Ash and SQLite"), and telling them apart needs names, not grammar:
this is a general vocabulary of technologies, not of any one project. A name also counts
when it is written as "<Name> Framework" or "<Name> API", or glued to a known name
("AshSqlite" contains "Sqlite").
"""

from __future__ import annotations

import re

# Canonical spelling of each name; matched case-insensitively on word boundaries.
_NAMES = (
    # languages
    "Python", "TypeScript", "JavaScript", "Elixir", "Erlang", "Ruby", "Go", "Golang", "Rust", "Java", "Kotlin",
    "Swift", "Objective-C", "C#", "C++", "PHP", "Scala", "Clojure", "Haskell", "OCaml", "F#", "Dart", "Lua",
    "Perl", "R", "Julia", "Zig", "Nim", "Crystal", "Bash", "PowerShell", "SQL", "HTML", "CSS", "Sass", "WebAssembly",
    # web and app frameworks
    "Phoenix", "Phoenix LiveView", "LiveView", "Ash", "Ash Framework", "Ecto", "Oban", "Absinthe", "Django",
    "Django REST Framework", "Flask", "FastAPI", "Starlette", "Pyramid", "Tornado", "Rails", "Ruby on Rails",
    "Sinatra", "Laravel", "Symfony", "Spring", "Spring Boot", "Quarkus", "Micronaut", "Express", "Koa", "NestJS",
    "Fastify", "Hono", "Next.js", "Nuxt", "Remix", "Astro", "SvelteKit", "Svelte", "React", "React Native",
    "Preact", "Vue", "Angular", "SolidJS", "Ember", "jQuery", "Alpine.js", "htmx", "Tailwind", "Tailwind CSS",
    "Bootstrap", "Flutter", "SwiftUI", "Jetpack Compose", "Electron", "Tauri", "Qt", "PySide6", "PyQt", "GTK",
    "Unity", "Godot", "Unreal", "Gin", "Echo", "Fiber", "Actix", "Axum", "Rocket", "ASP.NET", ".NET", "Blazor",
    "Node.js", "Node", "Deno", "Bun", "GraphQL", "gRPC", "tRPC", "Prisma", "Drizzle", "TypeORM", "Sequelize",
    "SQLAlchemy", "Alembic", "Pydantic", "Celery", "Sidekiq", "Hibernate", "Dapper", "Entity Framework",
    # data stores and queues
    "PostgreSQL", "Postgres", "MySQL", "MariaDB", "SQLite", "MongoDB", "Redis", "Valkey", "Cassandra",
    "DynamoDB", "Elasticsearch", "OpenSearch", "ClickHouse", "DuckDB", "Snowflake", "BigQuery", "Supabase",
    "Firebase", "Firestore", "Neo4j", "InfluxDB", "TimescaleDB", "CockroachDB", "Kafka", "RabbitMQ", "NATS",
    "Memcached", "MSSQL", "SQL Server", "Oracle",
    # infrastructure and tooling
    "Docker", "Docker Compose", "Kubernetes", "Helm", "Terraform", "Pulumi", "Ansible", "Nix", "AWS", "Lambda",
    "GCP", "Google Cloud", "Azure", "Cloudflare", "Vercel", "Netlify", "Fly.io", "Heroku", "GitHub Actions",
    "GitLab CI", "CircleCI", "Jenkins", "nginx", "Caddy", "Vite", "Webpack", "esbuild", "Rollup", "Turbopack",
    "Babel", "npm", "npm workspaces", "pnpm", "Yarn", "Poetry", "uv", "pip", "Cargo", "Maven", "Gradle",
    "Mix", "Hex", "Bundler", "Composer", "Jest", "Vitest", "Mocha", "Playwright", "Cypress", "Selenium",
    "pytest", "ExUnit", "RSpec", "JUnit", "ESLint", "Prettier", "Ruff", "mypy", "Pyright", "Credo",
    "Dialyzer", "Storybook", "OpenAPI", "Swagger", "OAuth", "Stripe", "Twilio", "Sentry", "Prometheus",
    "Grafana", "OpenTelemetry", "Pandas", "NumPy", "PyTorch", "TensorFlow", "scikit-learn", "Jupyter",
    "LangChain", "Hugging Face", "Ollama", "MCP", "Claude Code", "tmux", "Git", "googleapis",
    # data and everyday tools
    "dbt", "Airflow", "Dagster", "Spark", "Hadoop", "Databricks", "Looker", "Tableau", "Power BI", "Metabase",
    "Excel", "Google Sheets", "Figma", "Jira", "Confluence", "Notion", "Slack", "VS Code", "Vim", "Neovim",
    "Emacs", "IntelliJ", "PyCharm", "Xcode", "Android Studio", "WordPress", "Shopify", "WooCommerce", "Magento",
    "Odoo", "SAP", "Salesforce", "HubSpot", "Zapier", "n8n",
)
_BY_LOWER = {name.lower(): name for name in _NAMES}
# Longest first, so "Phoenix LiveView" wins over "Phoenix".
_ALTERNATIVES = "|".join(re.escape(n) for n in sorted(_BY_LOWER, key=len, reverse=True))
_KNOWN = re.compile(rf"(?<![\w.#+-])(?:{_ALTERNATIVES})(?![\w#+]|\.\w)", re.I)
# "Ash Framework", "Gmail API": a capitalised name with the word that says what it is.
_NAMED = re.compile(r"\b(?P<name>[A-Z][A-Za-z0-9.]+)\s+(?P<what>Framework|API|SDK)\b")
# "AshSqlite", "NextAuth", "ExUnit": glued CamelCase that contains a known name.
_GLUED = re.compile(r"\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)+\b")
# Words that are names only when capitalised mid-sentence ("Go", "R", "Node", "Ash", "Mix", "Hex").
_AMBIGUOUS = {"go", "r", "node", "ash", "mix", "hex", "echo", "fiber", "rocket", "lambda", "helm", "oracle",
              "spring", "express", "remix", "astro", "ember", "unity", "unreal", "rollup", "bun", "uv", "pip",
              "nix", "git", "qt", "gin", "credo", "swift", "rust", "dart", "crystal", "julia", "phoenix", "spark",
              "slack", "notion", "excel", "sap", "looker"}


def tech_names(text: str) -> list[str]:
    """Known technology names in ``text``, canonical spelling, in order of appearance, no repeats."""
    found: list[tuple[int, str]] = []
    for m in _NAMED.finditer(text):
        found.append((m.start(), f"{m.group('name')} {m.group('what')}"))
    for m in _GLUED.finditer(text):
        word = m.group(0)
        low = word.lower()
        if low not in _BY_LOWER and any(part in low for part in ("sql", "sqlite", "postgres", "redis", "mongo", "graphql")):
            found.append((m.start(), word))
    for m in _KNOWN.finditer(text):
        word = m.group(0)
        low = word.lower()
        if low in _AMBIGUOUS and not word[:1].isupper():
            continue
        if low in _AMBIGUOUS and m.start() == 0 and len(word) <= 4 and low not in ("ash", "mix"):
            continue  # a capital at the start of a sentence says nothing
        found.append((m.start(), _BY_LOWER[low]))
    out: list[str] = []
    covered: list[tuple[int, int]] = []
    for start, name in sorted(found, key=lambda f: (f[0], -len(f[1]))):
        end = start + len(name)
        if any(s <= start < e for s, e in covered):
            continue  # "Phoenix LiveView" already covers "LiveView"; "Ash Framework" covers "Ash"
        covered.append((start, end))
        if name.lower() not in (o.lower() for o in out):
            out.append(name)
    return out


__all__ = ["tech_names"]
