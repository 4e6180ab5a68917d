#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Checks JSON Lines output of beacon against docs/schema/ (JSON Schema 2020-12).

    validate_json.py SCHEMA_DIR SCHEMA_NAME FILE [SCHEMA_NAME FILE ...]

Every line of each FILE must be one JSON value valid against SCHEMA_NAME (e.g. scan.schema.json);
an empty FILE is an error (a check of nothing is no check). The schemas refer to each other by
their $id, resolved from SCHEMA_DIR only (nothing is fetched). Exit status 0 when all are valid,
1 with one line per problem (file:line: schema: path: message) otherwise.
"""
import json
import pathlib
import sys

from jsonschema import Draft202012Validator
from referencing import Registry, Resource


def registry(directory):
    resources = []
    for path in sorted(pathlib.Path(directory).glob("*.schema.json")):
        schema = json.loads(path.read_text())
        Draft202012Validator.check_schema(schema)
        resources.append((schema["$id"], Resource.from_contents(schema)))
    return Registry().with_resources(resources)


def main(argv):
    if len(argv) < 4 or len(argv) % 2:
        print(__doc__, file=sys.stderr)
        return 2
    directory = pathlib.Path(argv[1])
    known = registry(directory)
    problems = []
    for name, file in zip(argv[2::2], argv[3::2]):
        schema = json.loads((directory / name).read_text())
        validator = Draft202012Validator(schema, registry=known)
        lines = pathlib.Path(file).read_text().splitlines()
        if not lines:
            problems.append(f"{file}: empty: nothing to check against {name}")
        for number, line in enumerate(lines, 1):
            try:
                value = json.loads(line)
            except json.JSONDecodeError as error:
                problems.append(f"{file}:{number}: not JSON: {error}: {line[:200]}")
                continue
            for error in sorted(validator.iter_errors(value), key=lambda e: list(e.absolute_path)):
                where = "/".join(str(p) for p in error.absolute_path) or "(top)"
                problems.append(f"{file}:{number}: {name}: {where}: {error.message[:300]}: {line[:300]}")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
