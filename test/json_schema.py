# SPDX-FileCopyrightText: 2026 The libonnxslim authors
# SPDX-License-Identifier: MIT
"""The JSON documents of `libonnxslim ... --json`, checked against docs/json.md.

docs/json.md has one section per schema, headed "## `libonnxslim.NAME/N`",
with a table | Member | Type | Meaning |. A member is a path (`a.b`: member
b of object a, `a[]`: an element of array a) and its types, joined by
"or". This module reads those tables (the page is the only description of
the schema, so the page and the output cannot drift apart silently) and
checks documents against them:

- every member of every object of the document is listed, with one of its
  types, and in the order of the table;
- every member listed for an object is present in it ("every member is
  always present");
- Spec.unseen() lists the members no checked document has shown, so a test
  can fail when the page lists something the commands never print.
"""
import json
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parent.parent
TYPES = {"string", "integer", "number", "boolean", "null", "object", "array"}


class Spec:
    def __init__(self, md=ROOT / "docs" / "json.md"):
        self.schemas = {}  # name -> {path: set(types)}, in table order
        self.seen = {}     # name -> set(paths)
        current = None
        for line in pathlib.Path(md).read_text().splitlines():
            m = re.match(r"^## `(libonnxslim\.[a-z]+/\d+)`\s*$", line)
            if m:
                current = m.group(1)
                self.schemas[current] = {}
                self.seen[current] = set()
                continue
            if line.startswith("## "):
                current = None
            if current is None:
                continue
            m = re.match(r"^\| `([^`]+)` \| ([a-z ]+) \|", line)
            if not m:
                continue
            types = set(re.split(r"\s+or\s+", m.group(2).strip()))
            if not types <= TYPES:
                raise ValueError("docs/json.md %s: %s: unknown type in %r" % (current, m.group(1), m.group(2)))
            self.schemas[current][m.group(1)] = types

    @staticmethod
    def type_of(v):
        if v is None:
            return "null"
        if isinstance(v, bool):
            return "boolean"
        if isinstance(v, int):
            return "integer"
        if isinstance(v, float):
            return "number"
        if isinstance(v, str):
            return "string"
        if isinstance(v, list):
            return "array"
        return "object"

    def check(self, doc):
        """Problems of one parsed document (an empty list when it conforms)."""
        if not isinstance(doc, dict) or not isinstance(doc.get("schema"), str):
            return ["not an object with a string member 'schema'"]
        name = doc["schema"]
        if name not in self.schemas:
            return ["schema %r is not documented in docs/json.md" % name]
        members = self.schemas[name]
        problems = []

        def walk(v, path):
            t = self.type_of(v)
            allowed = members.get(path) if path else {"object"}
            if allowed is None:
                problems.append("%s: not documented" % path)
                return
            self.seen[name].add(path)
            if t not in allowed and not (t == "integer" and "number" in allowed):
                problems.append("%s: %s, documented as %s" % (path, t, " or ".join(sorted(allowed))))
            if t == "object":
                prefix = path + "." if path else ""
                want = [p for p in members if p.startswith(prefix) and "." not in p[len(prefix):]
                        and not p[len(prefix):].endswith("[]")]
                got = [prefix + k for k in v]
                for p in want:
                    if p not in got:
                        problems.append("%s: documented, missing" % p)
                order = [p for p in got if p in want]
                if order != [p for p in want if p in got]:
                    problems.append("%s: members in another order than docs/json.md: %s"
                                    % (path or "(top)", ", ".join(k for k in v)))
                for k, x in v.items():
                    walk(x, prefix + k)
            elif t == "array":
                for x in v:
                    walk(x, path + "[]")

        walk(doc, "")
        return problems

    def check_text(self, text):
        """Parses text as one JSON document and checks it."""
        def no_constant(c):
            raise ValueError("%s is not JSON" % c)
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as e:
                return None, ["not UTF-8: %s" % e]
        try:
            doc = json.loads(text, parse_constant=no_constant)
        except ValueError as e:
            return None, ["not JSON: %s" % e]
        return doc, self.check(doc)

    def unseen(self, name):
        return [p for p in self.schemas[name] if p not in self.seen[name]]
