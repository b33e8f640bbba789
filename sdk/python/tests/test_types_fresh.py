import json
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import gen_types  # noqa: E402


class TypesAreFresh(unittest.TestCase):
    def test_generated_types_match_the_openapi_document(self):
        """herald/_types.py must be what scripts/gen_types.py makes of api/v3/openapi.json:
        run `make sdk-python-types` after editing the document."""
        with open(os.path.join(ROOT, "..", "..", "api", "v3", "openapi.json"), encoding="utf-8") as f:
            want = gen_types.generate(json.load(f))
        with open(os.path.join(ROOT, "herald", "_types.py"), encoding="utf-8") as f:
            got = f.read()
        if got != want:
            self.fail("herald/_types.py is stale: run `make sdk-python-types` (python3 scripts/gen_types.py in sdk/python)")

    def test_a_new_field_appears_in_the_types(self):
        """The generator picks up what the document says (not a fixed list)."""
        spec = {"components": {"schemas": {
            "Thing": {"type": "object", "required": ["id"], "properties": {
                "id": {"type": "integer"},
                "from": {"type": "string", "nullable": True},
                "kind": {"type": "string", "enum": ["a", "b"]},
                "tags": {"type": "array", "items": {"type": "string"}},
                "meta": {"type": "object", "additionalProperties": True},
            }},
        }}}
        src = gen_types.generate(spec)
        ns: dict = {}
        exec(compile(src, "<generated>", "exec"), ns)
        thing = ns["Thing"]
        self.assertEqual(thing.__required_keys__, frozenset({"id"}))
        self.assertEqual(thing.__optional_keys__, frozenset({"from", "kind", "tags", "meta"}))
        self.assertIn('ThingKind = Literal["a", "b"]', src)

    def test_generated_module_imports_and_describes_the_send(self):
        from herald import types

        self.assertEqual(types.SendRequest.__required_keys__, frozenset({"notification"}))
        self.assertIn("sendTo", types.SendRequest.__optional_keys__)
        self.assertIn("sendAt", types.SendRequest.__optional_keys__)
        self.assertIn("workflow", types.SendRequestNotification.__optional_keys__)
        self.assertEqual(types.JsonPatchItem.__required_keys__, frozenset({"op", "path"}))


class Packaging(unittest.TestCase):
    def test_version_matches_pyproject(self):
        import re

        import herald

        with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
            m = re.search(r'^version = "([^"]+)"', f.read(), re.M)
        self.assertIsNotNone(m)
        self.assertEqual(m.group(1), herald.__version__)
        self.assertTrue(os.path.exists(os.path.join(ROOT, "herald", "py.typed")))


if __name__ == "__main__":
    unittest.main()
