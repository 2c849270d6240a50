#!/usr/bin/env python3
"""Runs every shell line of README.md and docs/*.md as written
(test/Docs/shell-lines.test): the lines of each ```sh block, a file's
blocks in order in one bash, from a scratch folder that holds `build`
(the build tree under test), `examples` and `include` as the repository
has them. Set-up, build, test, benchmark and fuzz commands (`./utils/...`, `./bench/...`,
`cmake -G`, `cmake --build`, and the pip install of the clone, which
utils/fresh-debian.sh and `utils/test.sh --pypi` run) are left out; /opt/birsim, the docs' install
prefix, becomes a scratch prefix.

    utils/run-doc-commands.py SOURCE_DIR BUILD_DIR SCRATCH_DIR
"""
import os
import re
import subprocess
import sys

SKIPPED = (r"^\./utils/", r"^\./bench/", r"^cmake -G", r"^cmake --build",
           r"^python3 -m venv venv && venv/bin/pip install \.")


def commands(text):
    """The runnable lines of each ```sh block, continuations joined."""
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        line = ""
        for raw in block.splitlines():
            line += raw + "\n"
            code = re.sub(r"\s+#[^'\"]*$", "", raw).rstrip()  # a trailing comment
            if code.endswith(("\\", "|")):
                continue
            stripped = line.strip()
            if stripped and not stripped.startswith("#") and not any(
                    re.match(p, stripped) for p in SKIPPED):
                yield stripped
            line = ""


def main(source, build, scratch):
    os.makedirs(scratch, exist_ok=True)
    for name, target in (("build", build),
                         ("examples", os.path.join(source, "examples")),
                         ("include", os.path.join(source, "include"))):
        link = os.path.join(scratch, name)
        if not os.path.lexists(link):
            os.symlink(target, link)
    prefix = os.path.join(scratch, "opt-birsim")
    docs = ["README.md"] + sorted(
        os.path.join("docs", f) for f in os.listdir(os.path.join(source, "docs"))
        if f.endswith(".md"))
    failed = 0
    for doc in docs:
        lines = [c.replace("/opt/birsim", prefix)
                 for c in commands(open(os.path.join(source, doc)).read())]
        if not lines:
            continue
        script = "set -euo pipefail\n" + "".join(
            "echo '$ %s'\n%s\n" % (c.splitlines()[0].replace("'", "'\\''"), c)
            for c in lines)
        run = subprocess.run(["bash", "-c", script], cwd=scratch,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
        status = "ok" if run.returncode == 0 else "FAILED"
        print("%s: %d commands %s" % (doc, len(lines), status))
        if run.returncode:
            failed += 1
            print(run.stdout[-4000:])
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
