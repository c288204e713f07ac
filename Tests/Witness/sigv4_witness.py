#!/usr/bin/env python3
"""Signs requests with botocore's S3 SigV4 signer, to cross-check ours.

  sigv4_witness.py CASES.json

CASES.json: a list of {"method", "url" (as sent: path and query percent-encoded), "headers":
[[name, value], ...] (every header that is signed, host included, x-amz-content-sha256 among
them), "access_key", "secret_key", "token" (or null), "region", "amz_date" (20150830T123600Z)}.
Prints a JSON list: for each case, the Authorization header botocore makes.
"""
import json
import sys

from botocore.auth import S3SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials


def sign(case):
    credentials = Credentials(case["access_key"], case["secret_key"], case.get("token"))
    auth = S3SigV4Auth(credentials, "s3", case["region"])
    request = AWSRequest(method=case["method"], url=case["url"], data=b"")
    for name, value in case["headers"]:
        request.headers[name] = value
    request.headers["X-Amz-Date"] = case["amz_date"]
    if case.get("token"):
        request.headers["X-Amz-Security-Token"] = case["token"]
    request.context["timestamp"] = case["amz_date"]
    canonical = auth.canonical_request(request)
    string_to_sign = auth.string_to_sign(request, canonical)
    signature = auth.signature(string_to_sign, request)
    auth._inject_signature_to_request(request, signature)
    return request.headers["Authorization"]


if __name__ == "__main__":
    with open(sys.argv[1]) as f:
        print(json.dumps([sign(case) for case in json.load(f)]))
