// The preference panel's quiet hours: a refusal's problems go next to the fields they name.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fieldErrors } from "../../src/preferences-quiet.ts";

test("fieldErrors: each problem of a refused quiet-hours save goes to its field", () => {
  assert.deepEqual(
    fieldErrors(
      "start must be a time of day HH:MM or HH:MM:SS (24-hour clock, 00:00 to 23:59:59); " +
        "start and end go together: give both, or neither for quiet days only; " +
        'days: "funday" is not a day: the values are sunday, monday; ' +
        "timezone must be an IANA time zone name such as Europe/Paris or UTC; " +
        "days must not list every day of the week: messages would never go out; something else",
    ),
    {
      start: ["start must be a time of day HH:MM or HH:MM:SS (24-hour clock, 00:00 to 23:59:59)"],
      window: ["start and end go together: give both, or neither for quiet days only"],
      days: ['days: "funday" is not a day: the values are sunday, monday', "days must not list every day of the week: messages would never go out"],
      timezone: ["timezone must be an IANA time zone name such as Europe/Paris or UTC"],
      "": ["something else"],
    },
  );
  assert.deepEqual(fieldErrors("end must be a time of day HH:MM or HH:MM:SS"), { end: ["end must be a time of day HH:MM or HH:MM:SS"] });
});

test("panelStrings: the panel speaks the element's language, English when unknown", async () => {
  const { panelStrings } = await import("../../src/preferences-strings.ts");
  assert.equal(panelStrings("en-US").quietSummary("22:00–07:00", "Saturday", "UTC"), "Quiet 22:00–07:00 and all day Saturday (UTC).");
  assert.equal(panelStrings("fr").quietSummary("", "samedi", "Europe/Paris"), "Calme toute la journée le samedi (Europe/Paris).");
  assert.equal(panelStrings("de-AT").allNotifications("SMS"), "Alle Benachrichtigungen: SMS");
  assert.equal(panelStrings("xx").save, "Save quiet hours");
});
