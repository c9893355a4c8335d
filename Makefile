# Two commands matter on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev

.PHONY: test demo demo-floor typecheck browser broker fonts bench install clean reader regions deck-rows

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $@

typecheck: $(STAMP)
	$(PY) -m mypy --strict dealer_pi/engine dealer_pi/broadcast/equity.py dealer_pi/broadcast/handeval.py

# The page tests drive Debian's Chromium; as root, install it when it is missing.
browser:
	@command -v chromium >/dev/null || [ "$$(id -u)" != 0 ] || \
	  { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium; }
	@command -v chromium >/dev/null || echo "warning: no chromium on PATH: the page tests will fail (apt-get install chromium)"

# The floor's tests and demo run Debian's Mosquitto broker; as root, install it when it is missing.
broker:
	@command -v mosquitto >/dev/null || test -x /usr/sbin/mosquitto || [ "$$(id -u)" != 0 ] || \
	  { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends mosquitto; }
	@command -v mosquitto >/dev/null || test -x /usr/sbin/mosquitto || echo "warning: no mosquitto: the floor tests will fail (apt-get install mosquitto)"

# The printed decks are drawn from SVG in the fonts models/fonts.conf pins; as root, install what is missing.
DECK_PACKAGES := librsvg2-bin fontconfig fonts-liberation fonts-dejavu-core
fonts:
	@missing=""; for p in $(DECK_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ]; then \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $$missing; \
	elif [ -n "$$missing" ]; then echo "warning:$$missing missing: the deck font tests will fail (apt-get install$$missing)"; fi

test: $(STAMP) typecheck browser broker fonts
	$(PY) -m pytest -q

demo: $(STAMP)
	$(VENV)/bin/dealer-pi demo --host 127.0.0.1 --port 8000

# A tournament on eight simulated tables, a private broker and the floor page: prints the URLs.
demo-floor: $(STAMP) broker
	$(VENV)/bin/dealer-pi demo-floor --host 127.0.0.1 --port 8080

# Every benchmark runs, even after one whose aim is not met; the run fails at the end, naming them.
bench: $(STAMP)
	@failed=""; for b in benchmarks/*.py; do echo "== $$b"; $(PY) $$b || failed="$$failed $$b"; done; \
	if [ -n "$$failed" ]; then echo "aims not met:$$failed"; exit 1; fi

# Build the convolutional card reader (models/index_cnn.*) with PyTorch on the CPU: about 18 min
# on 2 cores. Only these targets install the `train` extra; nothing at run time imports torch.
reader: $(STAMP)
	$(PY) -m pip install -q -e '.[dev,train]'
	PYTHONPATH=. $(PY) models/make_index_cnn.py --cache build/models/synth.npz

# The region classifier (models/region_cnn.onnx) and the printed decks' rows (models/deck_rows.npz)
# are drawn from the SVG decks: ASSETS is the card-assets folder (not shipped with the repository).
ASSETS ?= ../shared/card-assets
regions: $(STAMP)
	$(PY) -m pip install -q -e '.[dev,train]'
	PYTHONPATH=. $(PY) models/make_region_cnn.py --assets $(ASSETS) --cache build/models/regions.npz

deck-rows: $(STAMP)
	PYTHONPATH=. $(PY) models/deck_rows.py --assets $(ASSETS)

clean:
	rm -rf $(VENV) build *.egg-info

# ---- On a Raspberry Pi: `sudo make install` --------------------------------------------
# A venv that also sees Debian's python3-lgpio and python3-picamera2, the systemd unit,
# a commented config at $(SYSCONFDIR)/config.toml (kept if present), the service user,
# and the service enabled and started. DESTDIR=/some/dir stages the files there and
# skips everything that touches the running system (user, groups, systemctl).
PREFIX ?= /opt/dealer-pi
SYSCONFDIR ?= /etc/dealer-pi
UNITDIR ?= /etc/systemd/system
SERVICE_USER ?= dealer-pi
DESTDIR ?=
IVENV := $(DESTDIR)$(PREFIX)/venv
ICONF := $(DESTDIR)$(SYSCONFDIR)/config.toml

.PHONY: install-user install-venv install-share install-units install-config install-enable

# One step after the other, even under `make -j`: the user must exist before its config is handed over.
install:
	$(MAKE) install-user
	$(MAKE) install-venv
	$(MAKE) install-units
	$(MAKE) install-config
	$(MAKE) install-enable

install-user:
	@if [ -z "$(DESTDIR)" ]; then \
	  for g in gpio video dialout; do getent group $$g >/dev/null || groupadd --system $$g; done; \
	  id -u $(SERVICE_USER) >/dev/null 2>&1 || useradd --system --user-group --no-create-home \
	    --home-dir /var/lib/dealer-pi --shell /usr/sbin/nologin $(SERVICE_USER); \
	  usermod -a -G gpio,video,dialout $(SERVICE_USER); \
	fi

install-venv:
	install -d $(DESTDIR)$(PREFIX)
	test -x $(IVENV)/bin/python || $(PYTHON) -m venv --system-site-packages $(IVENV)
	$(IVENV)/bin/python -m pip install -q --upgrade pip
	$(IVENV)/bin/python -m pip install -q .
	install -m 0644 README.md $(DESTDIR)$(PREFIX)/README.md
	$(MAKE) install-share

# The pages, the card reader's model and the rule catalogue, where the installed package looks
# for them (dealer_pi/resources.py): the venv's share/dealer-pi.
ISHARE := $(IVENV)/share/dealer-pi
install-share:
	rm -rf $(ISHARE)/web $(ISHARE)/docs
	install -d $(ISHARE)/models
	cp -R web docs $(ISHARE)/
	install -m 0644 models/index_cnn.onnx models/index_cnn.npz models/index_mlp.npz models/region_cnn.onnx models/REPORT.md $(ISHARE)/models/

# dealer-pi.service is enabled by install-enable; dealer-pi-floor.service only on the floor's machine, by hand.
install-units:
	install -d $(DESTDIR)$(UNITDIR)
	for unit in dealer-pi.service dealer-pi-floor.service; do \
	  sed -e 's|/opt/dealer-pi|$(PREFIX)|g' -e 's|/etc/dealer-pi/|$(SYSCONFDIR)/|g' \
	    -e 's|^User=dealer-pi|User=$(SERVICE_USER)|' -e 's|^Group=dealer-pi|Group=$(SERVICE_USER)|' \
	    systemd/$$unit > $(DESTDIR)$(UNITDIR)/$$unit && chmod 0644 $(DESTDIR)$(UNITDIR)/$$unit || exit 1; \
	done

install-config:
	install -d -m 0755 $(DESTDIR)$(SYSCONFDIR)
	@if [ -e $(ICONF) ]; then echo "keeping $(ICONF)"; else \
	  dt=$$($(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(24))'); \
	  pt=$$($(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(24))'); \
	  sed -e "s|^dealer_token = \"\"|dealer_token = \"$$dt\"|" -e "s|^producer_token = \"\"|producer_token = \"$$pt\"|" \
	    hardware/config.example.toml > $(ICONF).new && chmod 0640 $(ICONF).new && mv $(ICONF).new $(ICONF) && \
	  echo "wrote $(ICONF) (tokens inside; edit it, then: dealer-pi check-config $(SYSCONFDIR)/config.toml)"; fi

install-enable:
	@if [ -z "$(DESTDIR)" ]; then \
	  chgrp $(SERVICE_USER) $(ICONF) && \
	  $(IVENV)/bin/dealer-pi check-config $(ICONF) && \
	  systemctl daemon-reload && systemctl enable dealer-pi.service && systemctl restart dealer-pi.service && \
	  echo "dealer-pi is running: systemctl status dealer-pi; journalctl -u dealer-pi -f"; \
	else echo "staged in $(DESTDIR): not enabling anything"; fi
