"""Reads exactly one JSON object from stdin and checks its fields.

Each argument: KEY=VALUE (the value as JSON: true, 2, null, "x"; a bare
word is a string), KEY~TEXT (a string field containing TEXT), +KEY (present),
-KEY (absent). Exits 1 naming the first failed check.
"""
import json
import sys

text = sys.stdin.read()
try:
    obj = json.loads(text)
except ValueError as e:
    sys.exit(f"not one JSON object ({e}): {text!r}")
if not isinstance(obj, dict):
    sys.exit(f"not a JSON object: {text!r}")
for arg in sys.argv[1:]:
    if arg.startswith("+") or arg.startswith("-"):
        key, want = arg[1:], arg[0] == "+"
        if (key in obj) != want:
            sys.exit(f"{key} {'missing' if want else 'present'} in {text}")
    elif "~" in arg and ("=" not in arg or arg.index("~") < arg.index("=")):
        key, sub = arg.split("~", 1)
        if sub not in str(obj.get(key)):
            sys.exit(f"{key} does not contain {sub!r} in {text}")
    else:
        key, value = arg.split("=", 1)
        try:
            value = json.loads(value)
        except ValueError:
            pass
        if obj.get(key, "<absent>") != value:
            sys.exit(f"{key} is {obj.get(key, '<absent>')!r}, not {value!r}")
