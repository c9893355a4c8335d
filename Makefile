# Two commands matter on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev

.PHONY: test demo typecheck bench install clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

typecheck: $(STAMP)
	$(PY) -m mypy --strict dealer_pi/engine

test: $(STAMP) typecheck
	$(PY) -m pytest -q

demo: $(STAMP)
	$(VENV)/bin/dealer-pi demo --host 127.0.0.1 --port 8000

bench: $(STAMP)
	for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info
