"""Runs τ²-bench's own retail tools (reference-python/, read from the data folder, not copied) on
every task's gold actions and prints, per task, each action's output as the reference environment
renders it and the canonical JSON of every order and user the run could have changed (the rest of
its database is db.json's, whose canonical JSON's sha256 is printed once). The parity test compares
them with the plugin's TypeScript tools.

Only the bits of the tau2 package the reference files import are stubbed here: the DB base class
(a pydantic model loaded from db.json), the toolkit base (a holder for the db; the decorator
returns the function unchanged), the tool-type enum and the data path. The tools and the data
model run as the reference wrote them.

usage: python3 run_reference.py DATA_DIR [--calls FILE] [TASK_ID ...] > out.json
  --calls FILE: instead of the tasks' gold actions, sequences of tool calls
  ({"sequences": [{"id": ..., "calls": [{"name": ..., "arguments": {...}}]}]}), each on a fresh db.
"""

import enum
import hashlib
import importlib.util
import json
import sys
import types
from pathlib import Path

from pydantic import BaseModel

DATA = Path(sys.argv[1])
ARGS = sys.argv[2:]
CALLS = None
if ARGS[:1] == ["--calls"]:
    CALLS = json.loads(Path(ARGS[1]).read_text())["sequences"]
    ARGS = ARGS[2:]
ONLY = set(ARGS)
REF = DATA / "reference-python"


def module(name, **attrs):
    m = types.ModuleType(name)
    m.__dict__.update(attrs)
    sys.modules[name] = m
    return m


def validate(cls, data):
    """pydantic 2's model_validate, or pydantic 1's parse_obj (Debian 12 ships pydantic 1.10)."""
    return cls.model_validate(data) if hasattr(cls, "model_validate") else cls.parse_obj(data)


def dump(model):
    return model.model_dump() if hasattr(model, "model_dump") else model.dict()


class DB(BaseModel):
    @classmethod
    def load(cls, path):
        with open(path) as f:
            return validate(cls, json.load(f))


class ToolType(str, enum.Enum):
    READ = "read"
    WRITE = "write"
    THINK = "think"
    GENERIC = "generic"


def is_tool(tool_type):
    def wrap(fn):
        fn.__tool_type__ = tool_type
        return fn

    return wrap


class ToolKitBase:
    def __init__(self, db):
        self.db = db


for pkg in ["tau2", "tau2.domains", "tau2.domains.retail", "tau2.environment"]:
    module(pkg, __path__=[])
module("tau2.domains.retail.utils", RETAIL_DB_PATH=DATA / "db.json")
module("tau2.environment.db", DB=DB)
module("tau2.environment.toolkit", ToolKitBase=ToolKitBase, ToolType=ToolType, is_tool=is_tool)


def load(name, file):
    spec = importlib.util.spec_from_file_location(name, REF / file)
    m = importlib.util.module_from_spec(spec)
    sys.modules[name] = m
    spec.loader.exec_module(m)
    return m


data_model = load("tau2.domains.retail.data_model", "retail_data_model.py")
tools_module = load("tau2.domains.retail.tools", "retail_tools.py")


def floats(value):
    """Every number as a float, as the data model holds them (an int only where a tool assigned one unvalidated)."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, list):
        return [floats(v) for v in value]
    return {k: floats(v) for k, v in value.items()}


def canonical(db):
    return json.dumps(floats(dump(db)), sort_keys=True, separators=(",", ":"))


def render(result):
    """What the reference environment gives the agent (Environment.to_json_str)."""
    if isinstance(result, str):
        return result
    if isinstance(result, BaseModel):
        return json.dumps(dump(result), default=str)
    return json.dumps(result, default=str)


class Tracking(dict):
    """The db's orders or users, noting every key a tool looks up: the tools change an order or a
    user only through such a lookup (they iterate only to read), so the keys noted are all that a
    run can have changed."""

    def __init__(self, *args):
        super().__init__(*args)
        self.touched = {}

    def __getitem__(self, key):
        self.touched[key] = True
        return super().__getitem__(key)


raw = json.loads((DATA / "db.json").read_text())
tasks = json.loads((DATA / "tasks.json").read_text())
db = validate(data_model.RetailDB, raw)
initial = canonical(db)
out = {"initial": hashlib.sha256(initial.encode()).hexdigest(), "tasks": {}}
models = {"orders": data_model.Order, "users": data_model.User}
if CALLS is not None:
    runs = [(seq["id"], seq["calls"]) for seq in CALLS]
else:
    runs = [(task["id"], (task.get("evaluation_criteria") or {}).get("actions") or []) for task in tasks]
for run_id, calls in runs:
    if ONLY and run_id not in ONLY:
        continue
    db.orders = Tracking(db.orders)
    db.users = Tracking(db.users)
    tools = tools_module.RetailTools(db)
    outputs = []
    for action in calls:
        try:
            outputs.append(render(getattr(tools, action["name"])(**action["arguments"])))
        except Exception as e:  # the evaluator logs the failure and goes on
            outputs.append(f"Error: {e}")
    # The run's database is db.json's with these orders and users as they are now (canonical JSON
    # each); then they are read afresh from db.json for the next run.
    entry = {"outputs": outputs}
    for field in ("orders", "users"):
        table = getattr(db, field)
        entry[field] = {key: json.dumps(floats(dump(dict.__getitem__(table, key))), sort_keys=True, separators=(",", ":")) for key in table.touched if key in table}
        for key in table.touched:
            if key in raw[field]:
                dict.__setitem__(table, key, validate(models[field], raw[field][key]))
    out["tasks"][run_id] = entry
# Every run was undone: the database is db.json's again (so nothing outside the noted keys changed).
db.orders, db.users = dict(db.orders), dict(db.users)
out["restored"] = canonical(db) == initial
json.dump(out, sys.stdout)
