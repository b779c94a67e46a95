"""Prints the ```sh blocks of a Markdown page as one bash script, with the
page's paths replaced: `build/bin/` by the build's tools (and
`PYTHONPATH=build/python` by the build's Python package), `/tmp/<dir>` (the
page's work directory) by a test's own, and `clang-22` by the test's C
compiler command (with the sanitizer flags of the build).

  sh_blocks.py <page.md> <bin dir> <work dir to use for /tmp/NAME> <NAME> <cc>
"""
import os
import re
import sys

page, bin_dir, work, name, cc = sys.argv[1:6]
text = open(page, encoding="utf-8").read()
blocks = re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M)
if not blocks:
    sys.exit(f"{page}: no ```sh block")
print("set -euo pipefail")
for i, block in enumerate(blocks):
    block = block.replace("build/bin/", bin_dir.rstrip("/") + "/")
    block = block.replace("PYTHONPATH=build/python",
                          "PYTHONPATH=" + os.path.join(os.path.dirname(bin_dir.rstrip("/")), "python"))
    block = block.replace(f"/tmp/{name}", work)
    block = re.sub(r"^clang-22 ", cc + " ", block, flags=re.M)
    print(f"echo '--- block {i}'")
    print(block)
