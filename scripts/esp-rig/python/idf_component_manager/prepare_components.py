"""`python -m idf_component_manager.prepare_components`: see __init__.py."""

import argparse
import json
import os
import re
import sys

import yaml


def fail(msg):
    sys.stderr.write(f"[esp-rig] component stand-in: {msg}\n")
    sys.exit(1)


def manifest_deps(component_dir):
    """The namespace__name of each registry dependency in a component's idf_component.yml."""
    path = os.path.join(component_dir, "idf_component.yml")
    if not os.path.isfile(path):
        return []
    with open(path, encoding="utf-8") as f:
        data = yaml.safe_load(f) or {}
    return [name.replace("/", "__") for name in (data.get("dependencies") or {}) if name != "idf"]


def prepare_dependencies(args):
    root = os.environ.get("TESSERA_ESP_COMPONENTS")
    if not root:
        fail("TESSERA_ESP_COMPONENTS is not set (run scripts/esp-rig/build.sh)")
    with open(args.local_components_list_file, encoding="utf-8") as f:
        local = (yaml.safe_load(f) or {}).get("components") or []
    deps = {c["name"]: manifest_deps(c["path"]) for c in local}
    managed, queue = [], [d for ds in deps.values() for d in ds]
    while queue:
        name = queue.pop(0)
        if name in managed or name in deps:
            continue
        path = os.path.join(root, name)
        if not os.path.isdir(path):
            fail(f"{name} is not in {root} (run scripts/esp-rig/idf.sh)")
        managed.append(name)
        deps[name] = manifest_deps(path)
        queue.extend(deps[name])
    lines = [f'idf_build_component("{os.path.join(root, n)}" "project_managed_components")' for n in managed]
    lines.append(f'set(managed_components "{";".join(managed)}")')
    with open(args.managed_components_list_file, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    deps_file = os.path.join(os.path.dirname(args.managed_components_list_file), "rig_component_deps.json")
    with open(deps_file, "w", encoding="utf-8") as f:
        json.dump(deps, f)


def inject_requirements(args):
    deps_file = os.path.join(args.build_dir, "rig_component_deps.json")
    deps = {}
    if os.path.isfile(deps_file):
        with open(deps_file, encoding="utf-8") as f:
            deps = json.load(f)
    with open(args.component_requires_file, encoding="utf-8") as f:
        text = f.read()

    def add(m):
        name, reqs = m.group(1), m.group(2)
        extra = deps.get(name) or []
        if not extra:
            return m.group(0)
        merged = [r for r in reqs.split(";") if r] + [d for d in extra if d not in reqs.split(";")]
        joined = ";".join(merged)
        return (
            f'__component_set_property(___idf_{name} PRIV_REQUIRES "{joined}")\n'
            f'__component_set_property(___idf_{name} MANAGED_PRIV_REQUIRES "{";".join(extra)}")'
        )

    text = re.sub(r'__component_set_property\(___idf_(\S+) PRIV_REQUIRES "([^"]*)"\)', add, text)
    with open(args.component_requires_file, "w", encoding="utf-8") as f:
        f.write(text)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--project_dir")
    p.add_argument("--lock_path")
    p.add_argument("--interface_version")
    sub = p.add_subparsers(dest="command", required=True)
    prep = sub.add_parser("prepare_dependencies")
    prep.add_argument("--local_components_list_file", required=True)
    prep.add_argument("--managed_components_list_file", required=True)
    inj = sub.add_parser("inject_requirements")
    inj.add_argument("--idf_path")
    inj.add_argument("--build_dir", required=True)
    inj.add_argument("--component_requires_file", required=True)
    args = p.parse_args()
    if args.interface_version not in (None, "2", "3"):
        fail(f"ESP-IDF asks for interface {args.interface_version}; this stand-in speaks 2 and 3 (ESP-IDF 5.3)")
    (prepare_dependencies if args.command == "prepare_dependencies" else inject_requirements)(args)


if __name__ == "__main__":
    main()
