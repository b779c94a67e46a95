# Prints the PTX text of the first gpu.binary object in an MLIR file (format
# isa: `assembly = "..."`, with MLIR's \XX escapes).
import re
import sys

text = open(sys.argv[1]).read()
match = re.search(r'assembly = "((?:[^"\\]|\\.)*)"', text)
if not match:
    sys.exit("no gpu.binary with an assembly in " + sys.argv[1])
sys.stdout.write(re.sub(r"\\([0-9A-Fa-f]{2})", lambda m: chr(int(m.group(1), 16)),
                        match.group(1)).replace("\\\\", "\\"))
