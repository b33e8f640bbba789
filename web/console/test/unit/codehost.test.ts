import assert from "node:assert/strict";
import { test } from "node:test";
import { codeHostLabel } from "../../src/api/codehost";

test("known code hosts keep their own spelling", () => {
  assert.equal(codeHostLabel("github"), "GitHub");
  assert.equal(codeHostLabel("GitLab"), "GitLab");
  assert.equal(codeHostLabel(" gitea "), "Gitea");
});

test("other names are capitalised, an empty one is described", () => {
  assert.equal(codeHostLabel("sourcehut"), "Sourcehut");
  assert.equal(codeHostLabel(""), "your code host");
});
