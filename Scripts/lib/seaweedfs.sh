# A local SeaweedFS for the benchmarks (the witness venv's `weed`, as the tests start it): every
# port free on loopback, one identity (AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY, exported),
# anonymous reads allowed (a public bucket), killed when the sourcing script exits.
#   . Scripts/lib/seaweedfs.sh; start_seaweedfs DIR BUCKET   → $ENDPOINT, $WEED, AWS=(aws --endpoint-url …)
start_seaweedfs() {
  local dir=$1 bucket=$2 venv=.build/witness-venv
  mkdir -p "$dir/store"
  local MASTER MASTER_GRPC VOLUME VOLUME_GRPC FILER FILER_GRPC S3 S3_GRPC
  read -r MASTER MASTER_GRPC VOLUME VOLUME_GRPC FILER FILER_GRPC S3 S3_GRPC < <("$venv/bin/python" - <<'PY'
import socket
socks = [socket.socket() for _ in range(8)]
for s in socks: s.bind(("127.0.0.1", 0))
print(" ".join(str(s.getsockname()[1]) for s in socks))
PY
)
  export AWS_ACCESS_KEY_ID=QBBENCHKEY AWS_SECRET_ACCESS_KEY="bench-$RANDOM$RANDOM" AWS_DEFAULT_REGION=us-east-1
  cat >"$dir/s3.json" <<JSON
{"identities": [{"name": "bench", "credentials": [{"accessKey": "$AWS_ACCESS_KEY_ID", "secretKey": "$AWS_SECRET_ACCESS_KEY"}],
  "actions": ["Admin", "Read", "Write", "List", "Tagging"]}, {"name": "anonymous", "actions": ["Read"]}]}
JSON
  "$venv/bin/weed" -logdir="$dir" server -dir="$dir/store" -ip=127.0.0.1 -ip.bind=127.0.0.1 -master.port=$MASTER -master.port.grpc=$MASTER_GRPC \
    -volume.port=$VOLUME -volume.port.grpc=$VOLUME_GRPC -volume.max=100 -master.volumeSizeLimitMB=256 -filer.port=$FILER \
    -filer.port.grpc=$FILER_GRPC -s3 -s3.port=$S3 -s3.port.grpc=$S3_GRPC -s3.port.iceberg=0 -s3.port.lance=0 \
    -s3.config="$dir/s3.json" -metricsPort=0 >"$dir/weed.log" 2>&1 &
  WEED=$!
  trap 'kill -9 $WEED 2>/dev/null || true' EXIT
  ENDPOINT="http://127.0.0.1:$S3"
  AWS=("$venv/bin/aws" --endpoint-url "$ENDPOINT")
  for _ in $(seq 1 300); do "${AWS[@]}" s3api create-bucket --bucket "$bucket" >/dev/null 2>&1 && return 0; sleep 0.2; done
  echo "SeaweedFS did not take the bucket $bucket (see $dir/weed.log)" >&2
  return 1
}
