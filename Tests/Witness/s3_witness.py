#!/usr/bin/env python3
"""The tests' own S3 client, botocore's (an implementation other than ours), kept running for a
store's lifetime: botocore loads its S3 model once, where each AWS CLI call paid about 0.6 s of
CPU to start (90 calls in a run of the suite).

  s3_witness.py ENDPOINT      credentials in AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY

Reads one JSON request per line on stdin and answers each with one JSON line on stdout, until
stdin closes:
  {"op": "create_bucket", "bucket": B}               -> {"ok": true}
  {"op": "head_bucket", "bucket": B}                 -> {"ok": true}
  {"op": "put", "bucket": B, "key": K, "file": F}    -> {"ok": true}   (the file's bytes)
  {"op": "get", "bucket": B, "key": K, "file": F}    -> {"ok": true}   (written to F)
  {"op": "delete", "bucket": B, "key": K}            -> {"ok": true}
  {"op": "keys", "bucket": B, "prefix": P}           -> {"ok": true, "keys": [every key under P]}
  {"op": "uploads", "bucket": B}                     -> {"ok": true, "uploads": [[key, upload id], ...]}
  {"op": "read_all", "bucket": B}                    -> {"ok": true, "objects": N}  (every object read whole)
A failure answers {"ok": false, "error": "..."} (botocore's message: never the secret).
"""
import json
import os
import sys

import botocore.session
from botocore.config import Config


def client(endpoint):
    session = botocore.session.get_session()
    return session.create_client(
        "s3", endpoint_url=endpoint, region_name="us-east-1",
        aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"], aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"],
        config=Config(connect_timeout=60, read_timeout=60, s3={"addressing_style": "path"}))


def pages(s3, operation, **arguments):
    """Every page of a listing (continuation tokens or markers followed by botocore)."""
    return s3.get_paginator(operation).paginate(**arguments)


def answer(s3, request):
    op, bucket = request["op"], request["bucket"]
    if op == "create_bucket":
        s3.create_bucket(Bucket=bucket)
    elif op == "head_bucket":
        s3.head_bucket(Bucket=bucket)
    elif op == "put":
        with open(request["file"], "rb") as f:
            s3.put_object(Bucket=bucket, Key=request["key"], Body=f.read())
    elif op == "get":
        body = s3.get_object(Bucket=bucket, Key=request["key"])["Body"].read()
        with open(request["file"], "wb") as f:
            f.write(body)
    elif op == "delete":
        s3.delete_object(Bucket=bucket, Key=request["key"])
    elif op == "keys":
        keys = [o["Key"] for page in pages(s3, "list_objects_v2", Bucket=bucket, Prefix=request["prefix"]) for o in page.get("Contents", [])]
        return {"keys": keys}
    elif op == "uploads":
        uploads = [[u["Key"], u["UploadId"]] for page in pages(s3, "list_multipart_uploads", Bucket=bucket) for u in page.get("Uploads", [])]
        return {"uploads": uploads}
    elif op == "read_all":
        count = 0
        for page in pages(s3, "list_objects_v2", Bucket=bucket):
            for o in page.get("Contents", []):
                s3.get_object(Bucket=bucket, Key=o["Key"])["Body"].read()
                count += 1
        return {"objects": count}
    else:
        raise ValueError(f"unknown op {op!r}")
    return {}


def main():
    s3 = client(sys.argv[1])
    for line in sys.stdin:
        try:
            reply = {"ok": True, **answer(s3, json.loads(line))}
        except Exception as error:  # every failure is an answer: the test decides what it means
            reply = {"ok": False, "error": f"{type(error).__name__}: {error}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
