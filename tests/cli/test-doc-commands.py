#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Every `metrograph …` command line in the fenced code blocks of README.md
and docs/*.md runs as written.

The documented program (./app, ./solver, …) becomes the command line's test
workload, which prints its arguments and exits; a folder or profile that a
command expects to exist beforehand is made first. Commands that need an MPI
launcher or a display are skipped, each with the reason printed; a synopsis
line with placeholders is not a command. Any other documented command that
exits non-zero fails the test.

Usage: test-doc-commands.py SOURCE_ROOT BUILD_ROOT
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^\s*```")
# "metrograph" as the command word: not part of metrograph-plugin, a path
# or a library name.
COMMAND = re.compile(r"(?:^|[\s;&|(])metrograph\s")
# ./app, ./solver, ./mpi_app …: the documented program.
PROGRAM = re.compile(r"(?<=\s)\./[A-Za-z_][\w.-]*")
MPI = re.compile(r"\b(mpirun|mpiexec|srun)\b|(^|\s)(-n\s*\d+|--np[= ]\d+)")
VIEWER = re.compile(r"\bmetrograph(\s+[^\s-][^\s]*\.mgprof)+\s*(#.*)?$")
PLACEHOLDER = re.compile(r"…|\[|\||\bPROFILE\b|\bPROGRAM\b|\bRUNDIR\b")


def code_blocks(path):
    """(line number, text) of every line inside a fenced code block that
    may hold commands: not a ```text block, which shows what a command
    printed (a summary line may name a command: "metrograph --report
    names them")."""
    inside, output = False, False
    with open(path, encoding="utf-8") as stream:
        for number, line in enumerate(stream, 1):
            if FENCE.match(line):
                inside = not inside
                output = inside and line.strip() == "```text"
            elif inside and not output:
                yield number, line.rstrip("\n")


def command_lines(path):
    """(line number, command) with backslash continuations joined."""
    pending, start = "", 0
    for number, line in code_blocks(path):
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        text, pending = pending + line, ""
        if COMMAND.search(text) and not text.lstrip().startswith("#"):
            yield start, text.strip()


def skip_reason(command):
    if PLACEHOLDER.search(command.split("#")[0]):
        return "a synopsis with placeholders, not a command"
    if MPI.search(command):
        return "needs an MPI launcher (mpirun, srun)"
    if VIEWER.search(command):
        return "opens the viewer, which needs a display"
    return None


def prepare(folder, source_root, build_root):
    """What the documented commands take for granted: a results/ folder, a
    plugin folder, and run.mgprof from an earlier run."""
    os.makedirs(os.path.join(folder, "results"), exist_ok=True)
    os.makedirs(os.path.join(folder, "home", "src", "myplugin"), exist_ok=True)
    metrograph = os.path.join(build_root, "app", "cli", "metrograph")
    workload = os.path.join(build_root, "tests", "cli", "mg-cli-workload")
    subprocess.run([metrograph, "--profile", "-o", "run.mgprof", workload], cwd=folder,
                   env=environment(folder, build_root), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def environment(folder, build_root):
    env = dict(os.environ)
    env["PATH"] = os.path.join(build_root, "app", "cli") + os.pathsep + env.get("PATH", "")
    env["HOME"] = os.path.join(folder, "home")
    env["ALLINEA_CONFIG_DIR"] = os.path.join(folder, "home", "allinea")
    env["XDG_DATA_HOME"] = os.path.join(folder, "home", "xdg")
    env["SLURM_JOB_ID"] = "4242"
    for name in ("METROGRAPH_METRICS_PATH", "METROGRAPH_KEEP_RUN_DIR", "LD_PRELOAD",
                 "DISPLAY", "WAYLAND_DISPLAY"):
        env.pop(name, None)
    return env


def run_file(path, source_root, build_root):
    """Runs the commands of one file in a folder of their own; returns the
    number run and the failures."""
    workload = os.path.join(build_root, "tests", "cli", "mg-cli-workload")
    name = os.path.relpath(path, source_root)
    ran, failures = 0, []
    folder = tempfile.mkdtemp(prefix="mg-test-doc-commands-")
    try:
        prepare(folder, source_root, build_root)
        for number, command in command_lines(path):
            where = f"{name}:{number}"
            reason = skip_reason(command)
            if reason:
                print(f"skip {where}: {command}\n     ({reason})")
                continue
            runnable = PROGRAM.sub(workload, command)
            result = subprocess.run(["sh", "-c", runnable], cwd=folder,
                                    env=environment(folder, build_root),
                                    stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                    timeout=120)
            ran += 1
            if result.returncode != 0:
                failures.append(f"{where}: `{command}` exited with {result.returncode}:\n"
                                f"{result.stderr}")
                print(f"FAIL {where}: {command}")
            else:
                print(f"ok   {where}: {command}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return ran, failures


def main():
    source_root, build_root = sys.argv[1], sys.argv[2]
    docs = os.path.join(source_root, "docs")
    files = [os.path.join(source_root, "README.md")]
    files += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    ran, failures = 0, []
    for path in files:
        n, failed = run_file(path, source_root, build_root)
        ran += n
        failures += failed
    print(f"{ran} documented commands run, {len(failures)} failed")
    for failure in failures:
        print(failure, file=sys.stderr)
    # Guards the extraction itself: the README and cli.md hold several.
    if ran < 8:
        print(f"only {ran} documented commands were found to run", file=sys.stderr)
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
