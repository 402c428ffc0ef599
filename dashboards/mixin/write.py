"""Writes the files of render.jsonnet's output (JSON on stdin) into a folder: dashboards as 2-space JSON,
everything else as block-style YAML (multi-line strings as literal blocks, other strings JSON-quoted,
which YAML reads as double-quoted scalars), with the header as comment lines. Standard library only."""
import json
import os
import re
import sys

PLAIN_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_./-]*$")


def scalar(value, indent):
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    lines = value.split("\n")
    # A literal block keeps a multi-line string readable; it needs no leading blank on the first line.
    if len(lines) > 1 and not value.startswith((" ", "\n")) and not any(l != l.rstrip() for l in lines):
        chomp = "" if value.endswith("\n") and not value.endswith("\n\n") else ("-" if not value.endswith("\n") else "+")
        body = lines[:-1] if value.endswith("\n") else lines
        pad = " " * (indent + 2)
        return "|" + chomp + "\n" + "\n".join(pad + l if l else "" for l in body)
    return json.dumps(value, ensure_ascii=False)


def key(k):
    return k if PLAIN_KEY.match(k) and k not in ("true", "false", "null", "yes", "no", "on", "off") else json.dumps(k)


def emit(value, indent):
    """Lines of a mapping or sequence at the given indentation."""
    pad = " " * indent
    out = []
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (dict, list)) and v:
                out.append(pad + key(k) + ":")
                out.extend(emit(v, indent + (2 if isinstance(v, dict) else 2)))
            else:
                out.append(pad + key(k) + ": " + (("{}" if isinstance(v, dict) else "[]") if isinstance(v, (dict, list)) else scalar(v, indent)))
    else:
        for item in value:
            if isinstance(item, (dict, list)) and item:
                inner = emit(item, indent + 2)
                out.append(pad + "- " + inner[0][indent + 2:])
                out.extend(inner[1:])
            else:
                out.append(pad + "- " + (("{}" if isinstance(item, dict) else "[]") if isinstance(item, (dict, list)) else scalar(item, indent)))
    return out


def main():
    out_dir = sys.argv[1]
    files = json.load(sys.stdin)
    for name, spec in files.items():
        path = os.path.join(out_dir, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if name.endswith(".json"):
            text = json.dumps(spec["documents"][0], indent=2, ensure_ascii=False) + "\n"
        else:
            text = "".join("# " + line + "\n" for line in spec.get("header", []))
            text += "---\n".join("\n".join(emit(doc, 0)) + "\n" for doc in spec["documents"])
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
