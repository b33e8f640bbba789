import unittest

import herald

# The Standard Webhooks specification's published test vector.
SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
MSG_ID = "msg_p5jXN8AQM9LWM0D4loKWxJek"
TIMESTAMP = 1614265330
BODY = b'{"test": 2432232314}'
SIGNATURE = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="


def headers(sig=SIGNATURE, ts=TIMESTAMP, msg_id=MSG_ID):
    return {"webhook-id": msg_id, "webhook-timestamp": str(ts), "webhook-signature": sig}


class VerifyWebhook(unittest.TestCase):
    def test_the_published_vector(self):
        self.assertEqual(herald.sign_webhook(SECRET, MSG_ID, TIMESTAMP, BODY), SIGNATURE)
        herald.verify_webhook(SECRET, headers(), BODY, now=TIMESTAMP)
        herald.verify_webhook(SECRET, headers(), BODY.decode(), now=TIMESTAMP + 299)

    def test_header_names_are_case_insensitive(self):
        h = {"Webhook-Id": MSG_ID, "WEBHOOK-TIMESTAMP": str(TIMESTAMP), "Webhook-Signature": SIGNATURE}
        herald.verify_webhook(SECRET, h, BODY, now=TIMESTAMP)
        from email.message import Message  # http.client's header type

        m = Message()
        for k, v in h.items():
            m[k] = v
        herald.verify_webhook(SECRET, m, BODY, now=TIMESTAMP)

    def test_one_matching_signature_of_several_is_enough(self):
        sigs = "v1,bm90IHRoaXMgb25l v2,whatever " + SIGNATURE
        herald.verify_webhook(SECRET, headers(sig=sigs), BODY, now=TIMESTAMP)

    def test_refusals(self):
        cases = {
            "tampered body": (headers(), b'{"test": 2432232315}', TIMESTAMP),
            "another id": (headers(msg_id="msg_other"), BODY, TIMESTAMP),
            "too old": (headers(), BODY, TIMESTAMP + 301),
            "too new": (headers(), BODY, TIMESTAMP - 301),
            "no signature": ({"webhook-id": MSG_ID, "webhook-timestamp": str(TIMESTAMP)}, BODY, TIMESTAMP),
            "bad timestamp": (headers(ts="yesterday"), BODY, TIMESTAMP),
            "v2 only": (headers(sig="v2," + SIGNATURE[3:]), BODY, TIMESTAMP),
            "empty": (headers(sig="v1,"), BODY, TIMESTAMP),
        }
        for name, (h, body, now) in cases.items():
            with self.subTest(name):
                with self.assertRaises(herald.WebhookVerificationError):
                    herald.verify_webhook(SECRET, h, body, now=now)
        with self.assertRaises(herald.WebhookVerificationError):
            herald.verify_webhook("whsec_" + "A" * 32, headers(), BODY, now=TIMESTAMP)

    def test_tolerance_is_configurable(self):
        herald.verify_webhook(SECRET, headers(), BODY, now=TIMESTAMP + 3600, tolerance=3601)


if __name__ == "__main__":
    unittest.main()
