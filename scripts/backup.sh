#!/usr/bin/env bash
# Writes one backup set of H into a new directory: `bash scripts/backup.sh [dir]` (default
# var/backups/h-<UTC time>). The set holds SECRETS (the master key, and a dump with password hashes
# and sealed provider keys): it is created mode 0700, every file 0600; keep it like the key itself.
#
#   db.dump             pg_dump -Fc of DATABASE_URL (one consistent snapshot of the database)
#   vol-<name>.tar.gz   each workspace's Docker volumes (its files without a disk budget, and its
#                       state volume: checkpoints), read through a throw-away container
#   img-<name>.tar.gz   each budgeted workspace's ext4 image (SANDBOX_DISK_DIR), sparse, taken with
#                       the filesystem frozen (fsfreeze) for the copy when it is mounted
#   master.key          the master key (the key file in H_DATA_DIR, or H_MASTER_KEY), base64
#   git-data.tar.gz     H_DATA_DIR/git: the host-side git mirrors and known hosts, when present
#   manifest.json       H version and git revision, the last migration applied, the sandbox name
#                       prefix, the workspaces and every part with its size and sha256
#   SHA256SUMS          the same checksums, for `sha256sum -c`
#
# Nothing is stopped. The database is dumped first, then the files: a run in flight may have written
# files after the dump's snapshot or be in the middle of a write to a Docker volume; a budgeted
# workspace's writes wait while its image is copied. For a set where both agree, stop H first
# (bash scripts/stop.sh). Settings come from .env and the
# environment, as for scripts/start.sh. Progress goes to stderr; the set's path is the last line on
# stdout. Exit status: 0 complete; 1 failed (a partial set is left, named *.incomplete); 3 written,
# but storage the database names was missing or not supported (the manifest lists it under `missing`).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
note() { printf '[h backup] %s\n' "$*" >&2; }
fail() { printf '[h backup] %s\n' "$*" >&2; exit 1; }

load_env
[ "$#" -le 1 ] || fail "usage: scripts/backup.sh [dir]"
case "${1:-}" in -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}" >&2; exit 0 ;; esac
# A directory given is relative to where the command runs; the default and H's own paths to $ROOT.
dir="$(realpath -m "${1:-$ROOT/var/backups/h-$(date -u +%Y%m%dT%H%M%SZ)}")"
cd "$ROOT"
[ ! -e "$dir" ] || [ -z "$(ls -A "$dir" 2>/dev/null)" ] || fail "$dir exists and is not empty: a backup never overwrites one (choose a new directory)"
ensure_pg_client
umask 077
mkdir -p "$dir"
chmod 700 "$dir"
dir="$(cd "$dir" && pwd)"
work="$dir/.incomplete"
: >"$work"
# A frozen workspace filesystem is always thawed, whatever ends the script; a failed set is renamed.
frozen=""
unfreeze() { if [ -n "$frozen" ]; then fsfreeze -u "$frozen" 2>/dev/null || true; frozen=""; fi; }
trap 'status=$?; unfreeze; if [ -e "$work" ]; then mv "$dir" "$dir.incomplete" 2>/dev/null && note "backup failed; the partial set is $dir.incomplete"; fi; exit $status' EXIT
trap 'exit 130' INT TERM

pgurl="$(pg_tool_url "$DATABASE_URL")"
prefix="$SANDBOX_NAME_PREFIX"
data_dir="$(cd "$ROOT" && realpath -m "$H_DATA_DIR")"
disk_dir="$(cd "$ROOT" && realpath -m "${SANDBOX_DISK_DIR:-$data_dir/sandbox-disks}")/$prefix"
image="${SANDBOX_IMAGE:-h-sandbox:latest}"
parts="$dir/.parts.tsv"      # file \t kind \t volume \t workspace \t labels json
missing="$dir/.missing.tsv"  # workspace \t what
: >"$parts"; : >"$missing"

note "dumping the database ($(node -e 'const u=new URL(process.argv[1]); console.log(u.host + u.pathname)' "$pgurl"))"
pg_dump -Fc -f "$dir/db.dump" "$pgurl" || fail "pg_dump failed"
printf 'db.dump\tdatabase\t\t\t{}\n' >>"$parts"
migration="$(psql -X -At -d "$pgurl" -c "SELECT coalesce(max(migration_name), '') FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL" 2>/dev/null || true)"

# The sandboxes the database knows (a removed one has no storage left).
rows="$(psql -X -At -F $'\t' -d "$pgurl" -c "SELECT \"workspaceId\", driver, \"volumeName\", coalesce(record->>'diskMb', '') FROM \"Sandbox\" WHERE status <> 'removed' ORDER BY \"workspaceId\"")" || fail "could not list sandboxes"


backup_volume() { # volume workspace
  local vol="$1" ws="$2" labels
  if ! labels="$(docker volume inspect -f '{{json .Labels}}' "$vol" 2>/dev/null)"; then
    note "workspace $ws: Docker volume $vol is missing"
    printf '%s\tvolume %s\n' "$ws" "$vol" >>"$missing"
    return
  fi
  note "workspace $ws: volume $vol"
  docker run --rm --network none --user 0:0 --entrypoint tar -v "$vol:/v:ro" "$image" \
    --numeric-owner -C /v -czf - . >"$dir/vol-$vol.tar.gz" || fail "could not read volume $vol (helper image $image)"
  printf 'vol-%s.tar.gz\tvolume\t%s\t%s\t%s\n' "$vol" "$vol" "$ws" "$labels" >>"$parts"
}

backup_image() { # volume workspace
  local vol="$1" ws="$2" img="$disk_dir/$1.img" mnt="$disk_dir/mnt/$1"
  if [ ! -f "$img" ]; then
    note "workspace $ws: disk image $img is missing"
    printf '%s\timage %s\n' "$ws" "$img" >>"$missing"
    return
  fi
  note "workspace $ws: disk image $vol ($(du -h "$img" | cut -f1) used of $(du -h --apparent-size "$img" | cut -f1))"
  if mountpoint -q "$mnt"; then
    # Writes in the sandbox wait while the image is read, so the copy is a clean filesystem.
    if fsfreeze -f "$mnt" 2>/dev/null; then frozen="$mnt"; else note "workspace $ws: could not freeze $mnt; copying it live"; fi
  fi
  tar --sparse -C "$disk_dir" -czf "$dir/img-$vol.tar.gz" "$vol.img" || { unfreeze; fail "could not copy $img"; }
  unfreeze
  printf 'img-%s.tar.gz\timage\t%s\t%s\t{}\n' "$vol" "$vol" "$ws" >>"$parts"
}

if [ -n "$rows" ]; then
  command -v docker >/dev/null || fail "docker is needed to read workspace volumes"
  docker image inspect "$image" >/dev/null 2>&1 || fail "the helper image $image is not on this host (SANDBOX_IMAGE)"
  while IFS=$'\t' read -r ws driver vol disk_mb; do
    if [ "$driver" != docker ]; then
      note "workspace $ws: the $driver driver's files are not backed up (only the Docker driver's are)"
      printf '%s\t%s driver\n' "$ws" "$driver" >>"$missing"
      continue
    fi
    if [ -n "$disk_mb" ]; then backup_image "$vol" "$ws"; else backup_volume "$vol" "$ws"; fi
    backup_volume "$vol-state" "$ws"
  done <<<"$rows"
fi

key_source=""
if [ -n "${H_MASTER_KEY:-}" ]; then
  key_source="H_MASTER_KEY"
  printf '%s\n' "$H_MASTER_KEY" >"$dir/master.key"
elif [ -f "$data_dir/master.key" ]; then
  key_source="$data_dir/master.key"
  cp "$data_dir/master.key" "$dir/master.key"
else
  note "no master key yet (H_MASTER_KEY unset, no $data_dir/master.key): nothing encrypted to keep"
fi
if [ -n "$key_source" ]; then
  note "master key from $key_source"
  printf 'master.key\tkey\t\t\t{}\n' >>"$parts"
fi
if [ -d "$data_dir/git" ]; then
  note "git mirrors ($data_dir/git)"
  tar --numeric-owner -C "$data_dir" -czf "$dir/git-data.tar.gz" git || fail "could not archive $data_dir/git"
  printf 'git-data.tar.gz\tgit\t\t\t{}\n' >>"$parts"
fi

chmod 600 "$dir"/*
git_rev="$(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
# Like git describe --dirty: the checkout had uncommitted changes (its code is not exactly that commit).
if [ "$git_rev" != unknown ] && [ -n "$(git -C "$ROOT" status --porcelain --untracked-files=no 2>/dev/null)" ]; then git_rev="$git_rev-dirty"; fi
(cd "$dir" && cut -f1 "$parts" | xargs sha256sum >SHA256SUMS)
node -e '
  const fs = require("fs");
  const path = require("path");
  const [dir, root, prefix, diskDir, migration, gitRev, keySource, dbUrl] = process.argv.slice(1);
  const sums = Object.fromEntries(fs.readFileSync(path.join(dir, "SHA256SUMS"), "utf8").trim().split("\n").map((l) => l.split(/\s+\*?/).reverse()));
  const tsv = (f) => fs.readFileSync(path.join(dir, f), "utf8").split("\n").filter(Boolean).map((l) => l.split("\t"));
  const parts = tsv(".parts.tsv").map(([file, kind, volume, workspaceId, labels]) => ({
    file, kind, ...(volume ? { volume } : {}), ...(workspaceId ? { workspaceId } : {}),
    ...(kind === "volume" ? { labels: JSON.parse(labels || "{}") || {} } : {}),
    bytes: fs.statSync(path.join(dir, file)).size, sha256: sums[file],
  }));
  const workspaces = [...new Set(parts.filter((p) => p.workspaceId).map((p) => p.workspaceId))];
  const u = new URL(dbUrl);
  const manifest = {
    format: 1,
    createdAt: new Date().toISOString(),
    h: { version: JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version, gitRev },
    database: { name: decodeURIComponent(u.pathname.slice(1)), host: u.host, lastMigration: migration || null },
    sandboxNamePrefix: prefix,
    diskDir,
    masterKey: keySource ? { source: keySource === "H_MASTER_KEY" ? "env" : "file" } : null,
    workspaces,
    missing: tsv(".missing.tsv").map(([workspaceId, what]) => ({ workspaceId, what })),
    parts,
    totalBytes: parts.reduce((n, p) => n + p.bytes, 0),
  };
  fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(manifest, null, 2) + "\n", { mode: 0o600 });
' "$dir" "$ROOT" "$prefix" "$disk_dir" "$migration" "$git_rev" "$key_source" "$pgurl" || fail "could not write the manifest"
count_missing=$(wc -l <"$missing")
rm -f "$parts" "$missing" "$work"
chmod 600 "$dir"/*
note "backup set complete: $dir ($(du -sh "$dir" | cut -f1), $(node -e 'console.log(require(process.argv[1]).workspaces.length)' "$dir/manifest.json") workspace(s), last migration ${migration:-none})"
echo "$dir"
if [ "$count_missing" -gt 0 ]; then
  note "$count_missing storage item(s) the database names were not saved: see \"missing\" in manifest.json"
  exit 3
fi
