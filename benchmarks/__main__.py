"""`python -m benchmarks`: the kernel benchmark runner (see runner.py)."""
from .runner import main

if __name__ == "__main__":
    raise SystemExit(main())
