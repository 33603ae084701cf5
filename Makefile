# The two commands a new user runs: `make run` (dashboard on demo data) and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
STAMP := $(VENV)/.installed

.PHONY: run test venv system-deps lint bench translations clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	# The CPU wheel of torch first, so nothing pulls a multi-GB GPU build.
	$(PIP) install --quiet torch==2.13.0
	$(PIP) install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

system-deps:
	bash scripts/install-system-deps.sh

translations: $(STAMP)
	$(PY) scripts/build_translations.py

run: venv system-deps translations
	@if [ -n "$$DISPLAY$$WAYLAND_DISPLAY" ]; then \
		$(VENV)/bin/madohub-memory gui --demo; \
	else \
		echo "No display here: rendering the demo dashboard to demo-dashboard.png instead (run 'make run' on a desktop, or under xvfb-run, for the live window)."; \
		$(VENV)/bin/madohub-memory gui --demo --screenshot demo-dashboard.png --tab pending; \
	fi

test: venv system-deps translations
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest

lint: venv
	$(VENV)/bin/ruff check madohub_memory tests bench

clean:
	rm -rf $(VENV) build *.egg-info
