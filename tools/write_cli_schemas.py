"""Writes campaign_tui/cli/schemas/*.json, the JSON Schema of each command's --json output.
Run from the project root after changing an output: `python tools/write_cli_schemas.py`."""
import json
import sys
from pathlib import Path

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "campaign_tui/cli/schemas")
STR, INT, BOOL, NUM, OBJ, ARR = ({"type": "string"}, {"type": "integer"}, {"type": "boolean"},
                    {"type": "number"}, {"type": "object"}, {"type": "array"})


def nullable(t):
    return {"type": [t["type"], "null"]} if isinstance(t["type"], str) else t


STRS = {"type": "array", "items": STR}
EXACT = {"type": ["object", "null"], "required": ["num", "den"],
         "properties": {"num": INT, "den": {"type": "integer", "minimum": 1}},
         "additionalProperties": False}
ROLL = {"type": "object", "required": ["n", "kind", "expr", "dice", "purpose"],
        "properties": {"n": INT, "kind": {"enum": ["dice", "draw"]}, "expr": STR,
                       "dice": {"type": "array", "items": INT}, "purpose": STR}}
STEP = {"type": "object", "required": ["text", "label", "value", "value_exact", "reference"],
        "properties": {"text": STR, "label": STR, "value": STR, "value_exact": EXACT,
                       "reference": nullable(STR)}, "additionalProperties": False}
ENTRY = {"type": "object", "required": ["seq", "kind", "by", "clock", "step", "rng"],
         "properties": {"seq": INT, "kind": STR, "by": STR, "clock": OBJ, "step": STR,
                        "summary": STR, "lines": STRS, "rolls": {"type": "array", "items": ROLL},
                        "rng": ARR}}
PARAM = {"type": "object", "required": ["name", "type", "help", "required", "default", "choices"],
         "properties": {"name": STR, "type": STR, "help": STR, "required": BOOL, "choices": STRS}}
NOW = {"type": "object", "required": ["clock", "clock_text", "step", "step_title", "final"],
       "properties": {"clock": OBJ, "clock_text": STR, "step": STR, "step_title": STR, "final": BOOL}}


def obj(required, props, extra=True):
    return {"type": "object", "required": required, "properties": props,
            "additionalProperties": extra}


def doc(command, title, required, props, array_of=None):
    head = {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "$id": f"campaign-tui/{command}.json", "title": title}
    if array_of:  # list and log print an array; every item names the schema version
        item = obj(["schema", *required], {"schema": {"const": 1}, **props})
        return {**head, "type": "array", "items": item}
    return {**head, **obj(["schema", "command", *required],
                          {"schema": {"const": 1}, "command": {"const": command}, **props})}


SCHEMAS = {
    "error": doc("error", "A refusal or error (stdout with --json; same exit code)",
                 ["error", "exit"], {"error": STR, "exit": {"enum": [1, 2]}, "during": STR,
                  "details": {"type": "object", "required": ["action", "param", "problem"],
                              "properties": {"action": STR, "param": STR,
                                             "problem": {"enum": ["missing", "bad"]},
                                             "reason": STR}}}),
    "decision": doc("decision", "A decision is needed (exit 3): answer it as ID=VALUE",
                    ["decision", "so_far", "steps", "answer_with"],
                    {"decision": obj(["id", "kind", "prompt"], {
                        "id": STR, "kind": STR, "prompt": STR, "side": STR, "aliases": STRS,
                        "options": {"type": "array", "items": obj(["value"], {"value": STR})},
                        "info": STRS, "round": STR, "round_label": STR}),
                     "so_far": STRS, "steps": {"type": "array", "items": STEP},
                     "answer_with": STR}),
    "new": doc("new", "campaign-tui new --json", ["path"], {"path": STR}),
    "import": doc("import", "campaign-tui import --json", ["path"], {"path": STR}),
    "map": doc("map", "campaign-tui map --json", ["campaign", "viewer"],
               {"campaign": nullable(STR), "viewer": STR, "title": STR, "grid": nullable(STR),
                "places": nullable(INT), "routes": nullable(INT), "known_places": INT,
                "picture": STR, "map_file": STR, "imported": STR, "kept": STR,
                "library": {"type": "array", "items": obj(["name", "title", "path", "problem"], {
                    "name": STR, "title": nullable(STR), "path": STR,
                    "problem": nullable(STR)})}}),
    "export": doc("export", "campaign-tui export --json", ["path", "side"],
                  {"path": STR, "side": nullable(STR)}),
    "list": doc("list", "campaign-tui list --json",
                ["name", "ruleset", "where", "saved", "path", "example", "problem"],
                {"name": STR, "ruleset": STR, "where": STR, "saved": STR, "path": STR, "example": BOOL,
                 "problem": STR}, array_of=True),
    "log": doc("log", "campaign-tui log --json", list(ENTRY["required"]), ENTRY["properties"],
               array_of=True),
    "rulesets": doc("rulesets", "campaign-tui rulesets --json", ["rulesets", "problems"],
                    {"rulesets": {"type": "array", "items": obj(["id", "name", "version"],
                                  {"id": STR, "name": STR, "version": STR})}, "problems": STRS}),
    "scenarios": doc("scenarios", "campaign-tui scenarios --json", ["ruleset", "scenarios"],
                     {"ruleset": STR, "scenarios": {"type": "array", "items": obj(
                         ["id", "title", "length", "sides", "aliases", "description"],
                         {"id": STR, "title": STR, "length": STR, "sides": STRS, "aliases": STRS,
                          "description": STR})}}),
    "tables": doc("tables", "campaign-tui tables --json", ["ruleset", "tables"],
                  {"ruleset": STR, "tables": {"type": "array", "items": obj(
                      ["id", "aliases", "title", "reference", "verified", "notes",
                       "provenance", "inputs"],
                      {"id": STR, "aliases": STRS, "title": STR, "reference": STR, "verified": BOOL,
                       "notes": STRS, "provenance": OBJ, "inputs": {"type": "array", "items": obj(
                           ["name", "match", "die", "labels"],
                           {"name": STR, "match": STR, "die": nullable(STR), "labels": STRS})}})}}),
    "phases": doc("phases", "campaign-tui phases --json", ["ruleset", "machines"],
                  {"ruleset": STR, "machines": {"type": "array", "items": obj(
                      ["id", "outline"], {"id": STR, "outline": STR})}}),
    "table": doc("table", "campaign-tui table --json",
                 ["table", "title", "cell", "value", "value_exact", "labels", "explanation",
                  "steps", "notes", "reads", "provenance", "rolled"],
                 {"table": STR, "title": STR, "labels": {"type": "object",
                                                      "additionalProperties": STR},
                  "explanation": STRS, "steps": {"type": "array", "items": STEP},
                  "notes": STRS, "reads": STR, "provenance": OBJ, "rolled": nullable(INT),
                  "value_exact": EXACT}),
    "roll": doc("roll", "campaign-tui roll --json", ["expr", "dice", "constant", "total"],
                {"expr": STR, "dice": {"type": "array", "items": INT}, "constant": INT, "total": INT}),
    "procedures": doc("procedures", "campaign-tui procedures --json", ["ruleset", "procedures"],
                      {"ruleset": STR, "procedures": {"type": "array", "items": obj(
                          ["id", "aliases", "title", "reference", "help", "params"],
                          {"id": STR, "aliases": STRS, "title": STR, "reference": STR, "help": STR,
                           "params": {"type": "array", "items": PARAM}})}}),
    "calc": doc("calc", "campaign-tui calc --json",
                ["value", "value_exact", "summary", "lines", "steps", "rolls", "procedure",
                 "reference"],
                {"summary": STR, "lines": STRS, "steps": {"type": "array", "items": STEP},
                 "rolls": {"type": "array", "items": ROLL}, "procedure": STR, "reference": STR,
                 "value_exact": EXACT}),
    "act": doc("act", "campaign-tui act --json (the log entry, flat)",
               [*ENTRY["required"], "steps", "preview", "now"],
               {**ENTRY["properties"], "steps": {"type": "array", "items": STEP},
                "preview": BOOL, "now": nullable(STR)}),
    "advance": doc("advance", "campaign-tui advance --json", ["entries", "stopped", "now"],
                   {"entries": {"type": "array", "items": ENTRY}, "stopped": STR, "now": NOW}),
    "undo": doc("undo", "campaign-tui undo --json", ["summary", "entry"],
                {"summary": STR, "entry": ENTRY}),
    "redo": doc("redo", "campaign-tui redo --json", ["summary", "entry"],
                {"summary": STR, "entry": ENTRY}),
    "status": doc("status", "campaign-tui status --json",
                  ["campaign", "ruleset", "clock", "clock_text", "phase", "step", "step_title",
                   "actor", "prompt", "missing", "final", "outcome", "choices", "sides",
                   "viewer", "viewer_sides", "side_names", "formations"],
                  {"campaign": STR, "ruleset": STR, "clock": OBJ, "clock_text": STR, "phase": STR,
                   "step": STR, "step_title": STR, "actor": STR, "prompt": STR, "missing": STRS,
                   "final": BOOL, "outcome": {"type": ["object", "null"]},
                   "choices": {"type": "array", "items": obj(
                       ["kind", "title", "available", "reason", "params"],
                       {"kind": STR, "title": STR, "available": BOOL, "reason": nullable(STR),
                        "params": STRS})},
                   "sides": {"type": "object", "additionalProperties": STRS},
                   "viewer": STR, "viewer_sides": STRS,
                   "side_names": {"type": "object", "additionalProperties": STR},
                   "formations": {"type": "array", "items": obj(
                       ["id", "name", "side", "kind", "parent", "location", "units"],
                       {"id": STR, "name": STR, "side": STR, "kind": STR, "parent": nullable(STR),
                        "location": nullable(STR), "units": STRS})}}),
    "units": doc("units", "campaign-tui units --json", ["viewer", "units"],
                 {"viewer": STR, "units": {"type": "array", "items": obj(
                     ["id", "name", "side", "type", "formation", "formation_name", "location",
                      "values", "attrs", "status", "badges"],
                     {"id": STR, "name": STR, "side": STR, "type": STR, "formation": nullable(STR),
                      "formation_name": nullable(STR), "location": nullable(STR), "values": STR, "attrs": OBJ,
                      "status": OBJ, "badges": STRS})}}),
    "orders": doc("orders", "campaign-tui orders --json (draft, check or import)",
                  ["mode", "side", "path", "actions", "problems", "accepted"],
                  {"mode": {"enum": ["draft", "check", "import"]}, "side": STR,
                   "path": nullable(STR), "text": STR,
                   "actions": {"type": "array", "items": obj(
                       ["kind", "line", "summary"],
                       {"kind": STR, "line": INT, "summary": nullable(STR)})},
                   "problems": {"type": "array", "items": obj(
                       ["line", "message"], {"line": INT, "message": STR})},
                   "accepted": {"type": ["boolean", "null"]}}),
    "check": doc("check", "campaign-tui check --json",
                 ["campaign", "ok", "problems", "warnings", "entries", "replayed"],
                 {"campaign": STR, "ok": BOOL, "problems": STRS, "warnings": STRS, "entries": INT,
                  "replayed": BOOL}),
    "report": doc("report", "campaign-tui report --json", ["viewer", "reports"],
                  {"viewer": STR, "reports": {"type": "array", "items": obj(
                      ["title", "markdown", "path"],
                      {"title": STR, "markdown": STR, "path": nullable(STR)})}}),
    "seat": doc("seat", "campaign-tui seat --json (add, list or remove)",
                ["action", "campaign", "seats_file", "seat", "serving", "addresses", "seats",
                 "token", "link"],
                {"action": {"enum": ["add", "list", "remove"]}, "campaign": STR, "seats_file": STR,
                 "seat": nullable(STR), "serving": BOOL,
                 "addresses": {"type": "object", "additionalProperties": STR},
                 "seats": {"type": "array", "items": obj(
                     ["name", "side", "keys", "web", "connected"],
                     {"name": STR, "side": STR, "keys": STRS, "web": BOOL,
                      "connected": {"type": "array", "items": obj(
                          ["door", "peer", "since"],
                          {"door": STR, "peer": STR, "since": NUM})}})},
                 "token": nullable(STR), "link": nullable(STR)}),
    "serve": doc("serve", "campaign-tui serve --json (one line, printed once listening)",
                 ["campaigns", "ssh", "host_key", "host_key_file", "host_key_new", "web"],
                 {"campaigns": {"type": "array", "items": obj(["id", "path"],
                                                              {"id": STR, "path": STR})},
                  "ssh": STR, "host_key": STR, "host_key_file": STR, "host_key_new": BOOL,
                  "web": nullable(STR)}),
}
for name, schema in SCHEMAS.items():
    (OUT / f"{name}.json").write_text(json.dumps(schema, indent=1) + "\n", encoding="utf-8")
print(len(SCHEMAS))
