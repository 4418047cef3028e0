"""What the twin's tests share that needs no torch: their command line, the failure list, a check that records one,
running a command, loading an emitted lab.py."""
import argparse
import importlib.util
import subprocess
import sys

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"FAIL: {' '.join(cmd)} exited {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def load_lab(path):
    """An emitted lab.py as a module (it imports torch)."""
    spec = importlib.util.spec_from_file_location("lab", path)
    lab = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(lab)
    return lab


def arguments():
    """--peviz PEVIZ --dump TWIN_DUMP --assets ASSETS_LAB, as tests/CMakeLists.txt gives them."""
    a = argparse.ArgumentParser()
    a.add_argument("--peviz", required=True)
    a.add_argument("--dump", required=True)
    a.add_argument("--assets", required=True)
    return a.parse_args()
