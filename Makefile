# The two set-up commands of the README: `make run` (the main job) and `make test`.
.PHONY: run test setup bench

run:
	scripts/run.sh

test:
	scripts/test.sh

setup:
	scripts/setup.sh

bench:
	.venv/bin/python benchmarks/audit.py
