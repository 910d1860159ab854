#!/usr/bin/env bash
# Restores a set written by scripts/backup.sh, then migrates it to this checkout's schema:
#
#   bash scripts/restore.sh <dir> [--database-url URL] [--volume-prefix P] [--data-dir D]
#                                 [--disk-dir D] [--force]
#
# Stop H first (bash scripts/stop.sh): restore writes under it. Docker Compose is not covered yet
# (docs/operations.md).
# Targets default to this install's settings (.env and the environment, as for scripts/start.sh):
# DATABASE_URL, SANDBOX_NAME_PREFIX, H_DATA_DIR, SANDBOX_DISK_DIR. With another --volume-prefix
# than the set's, every volume and disk image is restored under the new prefix and the database's
# sandbox records are rewritten to name them, so the originals are never touched (a restore test,
# a second instance next to the first). Steps:
#
#   1. checks manifest.json and every part's sha256 (SHA256SUMS);
#   2. refuses a target database that has tables, target volumes or images that exist (or are in
#      use by a sandbox container), a different master key file, or existing git data, unless
#      --force (which replaces them, removing the containers that use them); and always refuses
#      when H_MASTER_KEY is set to another key than the set's;
#   3. creates the database if missing and pg_restores the dump (no owners or grants from the source);
#   4. restores the workspaces' Docker volumes (with their labels) and disk images, the master key
#      file (H_DATA_DIR/master.key, mode 0600; with H_MASTER_KEY set it must equal the set's) and
#      the git mirrors;
#   5. marks the sandboxes stopped (their containers are re-created on first use) under the target
#      prefix, then applies newer migrations (scripts/migrate.mjs): an older set restored onto a
#      newer H upgrades.
#
# Progress goes to stderr. Exit status: 0 restored; 1 failed or refused (the message says which).
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
note() { printf '[h restore] %s\n' "$*" >&2; }
fail() { printf '[h restore] %s\n' "$*" >&2; exit 1; }

load_env
# H's own paths (H_DATA_DIR, SANDBOX_DISK_DIR) are relative to $ROOT, where its processes start;
# the ones given here to where the command runs.
data_dir="$(cd "$ROOT" && realpath -m "$H_DATA_DIR")" disk_root=""
[ -z "${SANDBOX_DISK_DIR:-}" ] || disk_root="$(cd "$ROOT" && realpath -m "$SANDBOX_DISK_DIR")"
set_dir="" force="" db_url="$DATABASE_URL" new_prefix="$SANDBOX_NAME_PREFIX"
while [ "$#" -gt 0 ]; do
  case "$1" in
    --database-url) db_url="${2:?--database-url needs a URL}"; shift 2 ;;
    --volume-prefix) new_prefix="${2:?--volume-prefix needs a prefix}"; shift 2 ;;
    --data-dir) data_dir="$(realpath -m "${2:?--data-dir needs a directory}")"; shift 2 ;;
    --disk-dir) disk_root="$(realpath -m "${2:?--disk-dir needs a directory}")"; shift 2 ;;
    --force) force=1; shift ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "${BASH_SOURCE[0]}" >&2; exit 0 ;;
    -*) fail "unknown option $1 (see --help)" ;;
    *) [ -z "$set_dir" ] || fail "one backup directory only"; set_dir="$1"; shift ;;
  esac
done
[ -n "$set_dir" ] || fail "usage: scripts/restore.sh <dir> [--database-url URL] [--volume-prefix P] [--data-dir D] [--disk-dir D] [--force]"
[[ "$new_prefix" =~ ^[a-z0-9][a-z0-9_.-]*$ ]] || fail "--volume-prefix must match [a-z0-9][a-z0-9_.-]* (like SANDBOX_NAME_PREFIX)"
[ -f "$set_dir/manifest.json" ] || fail "$set_dir has no manifest.json: not a backup set (or an incomplete one)"
set_dir="$(cd "$set_dir" && pwd)"
cd "$ROOT"
disk_dir="${disk_root:-$data_dir/sandbox-disks}/$new_prefix"
pgurl="$(pg_tool_url "$db_url")"
ensure_pg_client
manifest() { node -e "const m = require(process.argv[1]); const v = ($1); console.log(typeof v === 'string' ? v : JSON.stringify(v))" "$set_dir/manifest.json"; }

# 1. The set is whole and unchanged.
[ "$(manifest 'm.format')" = 1 ] || fail "manifest.json has an unknown format"
note "checking the checksums of $set_dir"
(cd "$set_dir" && sha256sum --quiet -c SHA256SUMS >&2) || fail "checksum mismatch: the set is damaged or was changed"
node -e '
  const m = require(process.argv[1]);
  const sums = require("fs").readFileSync(process.argv[2], "utf8");
  for (const p of m.parts) if (!sums.includes(`${p.sha256}  ${p.file}`)) { console.error(`${p.file} is not in SHA256SUMS with the manifest'"'"'s checksum`); process.exit(1); }
' "$set_dir/manifest.json" "$set_dir/SHA256SUMS" || fail "manifest.json and SHA256SUMS disagree"
old_prefix="$(manifest 'm.sandboxNamePrefix')"
note "set of $(manifest 'm.createdAt') (H $(manifest 'm.h.version'), $(manifest 'm.h.gitRev' | cut -c1-12), last migration $(manifest 'm.database.lastMigration'), $(manifest 'm.workspaces.length') workspace(s))"
[ "$(manifest 'm.missing.length')" = 0 ] || note "the set lacks storage of $(manifest 'm.missing.length') item(s) (see \"missing\" in manifest.json): those workspaces come back without files"

# The name a volume of the set gets here: the set's prefix replaced by the target's.
renamed() { if [ "${1#"$old_prefix"}" != "$1" ]; then printf '%s%s' "$new_prefix" "${1#"$old_prefix"}"; else printf '%s' "$1"; fi; }
parts() { node -e 'for (const p of require(process.argv[1]).parts) if (p.kind === process.argv[2]) console.log([p.file, p.volume ?? "", p.workspaceId ?? ""].join("\t"))' "$set_dir/manifest.json" "$1"; }
volumes="$(parts volume)"
images="$(parts image)"

# 2. Refuse to overwrite anything unless asked to.
refusals=()
admin_url="$(node -e 'const u = new URL(process.argv[1]); u.pathname = "/postgres"; console.log(u.toString())' "$pgurl")"
db_name="$(node -e 'console.log(decodeURIComponent(new URL(process.argv[1]).pathname.slice(1)))' "$pgurl")"
db_exists="$(psql -X -At -d "$admin_url" -v ON_ERROR_STOP=1 -c "SELECT count(*) FROM pg_database WHERE datname = '${db_name//\'/\'\'}'")" || fail "cannot reach PostgreSQL at $(node -e 'console.log(new URL(process.argv[1]).host)' "$pgurl")"
tables=0
if [ "$db_exists" = 1 ]; then
  tables="$(psql -X -At -d "$pgurl" -c "SELECT count(*) FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')")"
  [ "$tables" = 0 ] || refusals+=("database $db_name has $tables tables")
fi
if [ -n "$volumes$images" ]; then
  command -v docker >/dev/null || fail "docker is needed to restore workspace volumes"
  image="${SANDBOX_IMAGE:-h-sandbox:latest}"
  docker image inspect "$image" >/dev/null 2>&1 || fail "the helper image $image is not on this host (SANDBOX_IMAGE)"
fi
while IFS=$'\t' read -r _ vol _; do
  [ -n "$vol" ] || continue
  if docker volume inspect "$(renamed "$vol")" >/dev/null 2>&1; then refusals+=("Docker volume $(renamed "$vol") exists"); fi
done <<<"$volumes"
while IFS=$'\t' read -r _ vol _; do
  [ -n "$vol" ] || continue
  target="$disk_dir/$(renamed "$vol")"
  if mountpoint -q "$disk_dir/mnt/$(renamed "$vol")"; then refusals+=("disk image $target.img is mounted: its sandbox container runs")
  elif [ -e "$target.img" ]; then refusals+=("disk image $target.img exists"); fi
done <<<"$images"
key_file="$data_dir/master.key"
if [ -f "$set_dir/master.key" ]; then
  set_key="$(tr -d '[:space:]' <"$set_dir/master.key")"
  if [ -n "${H_MASTER_KEY:-}" ] && [ "$H_MASTER_KEY" != "$set_key" ]; then
    fail "H_MASTER_KEY differs from the set's master key: the restored secrets would not decrypt (set H_MASTER_KEY to the content of $set_dir/master.key)"
  elif [ -f "$key_file" ] && [ "$(tr -d '[:space:]' <"$key_file")" != "$set_key" ]; then
    refusals+=("$key_file holds a different master key")
  fi
fi
if [ -f "$set_dir/git-data.tar.gz" ] && [ -n "$(ls -A "$data_dir/git" 2>/dev/null)" ]; then refusals+=("$data_dir/git is not empty"); fi
if [ "${#refusals[@]}" -gt 0 ]; then
  for r in "${refusals[@]}"; do note "target not empty: $r"; done
  [ -n "$force" ] || fail "refusing to overwrite (${#refusals[@]} item(s) above); --force replaces them"
  note "--force: replacing them"
fi

# 3. The database.
if [ "$db_exists" != 1 ]; then
  note "creating database $db_name"
  psql -X -q -d "$admin_url" -v ON_ERROR_STOP=1 -c "CREATE DATABASE \"${db_name//\"/\"\"}\"" || fail "could not create database $db_name"
elif [ "$tables" != 0 ]; then
  note "emptying database $db_name (--force)"
  psql -X -q -d "$pgurl" -v ON_ERROR_STOP=1 -c "SET client_min_messages = warning; DROP SCHEMA public CASCADE; CREATE SCHEMA public" || fail "could not empty $db_name"
fi
note "restoring the database dump into $db_name"
# --no-owner/--no-privileges: the target's own user owns everything, whoever owned it at the source.
pg_restore --no-owner --no-privileges --exit-on-error -d "$pgurl" "$set_dir/db.dump" || fail "pg_restore failed"

# 4. Workspace storage, key, git data.
while IFS=$'\t' read -r file vol ws; do
  [ -n "$vol" ] || continue
  target="$(renamed "$vol")"
  note "workspace $ws: volume $target"
  if docker volume inspect "$target" >/dev/null 2>&1; then
    # --force: the container using it goes first (it is re-created on first use).
    docker ps -aq --filter "volume=$target" | xargs -r docker rm -f >/dev/null
    docker volume rm "$target" >/dev/null || fail "could not remove volume $target"
  fi
  label_args=()
  while IFS= read -r kv; do [ -n "$kv" ] && label_args+=(--label "$kv"); done < <(node -e '
    const m = require(process.argv[1]);
    const p = m.parts.find((x) => x.file === process.argv[2]);
    for (const [k, v] of Object.entries(p.labels ?? {})) console.log(`${k}=${k === "h.ns" ? process.argv[3] : v}`);
  ' "$set_dir/manifest.json" "$file" "$new_prefix")
  docker volume create "${label_args[@]}" "$target" >/dev/null || fail "could not create volume $target"
  docker run --rm -i --network none --user 0:0 --entrypoint tar -v "$target:/v" "$image" \
    --numeric-owner -C /v -xzf - <"$set_dir/$file" || fail "could not unpack $file into $target"
done <<<"$volumes"
while IFS=$'\t' read -r file vol ws; do
  [ -n "$vol" ] || continue
  target="$(renamed "$vol")"
  note "workspace $ws: disk image $disk_dir/$target.img"
  mnt="$disk_dir/mnt/$target"
  if mountpoint -q "$mnt"; then
    # --force: the workspace's container goes (it is re-created on first use), then the mount.
    docker ps -aq --filter "label=h.ns=$new_prefix" --filter "label=h.workspace=$ws" | xargs -r docker rm -f >/dev/null
    umount "$mnt" 2>/dev/null || umount -l "$mnt" || fail "could not unmount $mnt"
  fi
  mkdir -p "$disk_dir" && chmod 700 "$disk_dir"
  tmp="$(mktemp -d "$disk_dir/.restore-XXXXXX")"
  tar --sparse -C "$tmp" -xzf "$set_dir/$file" || { rm -rf "$tmp"; fail "could not unpack $file"; }
  mv -f "$tmp/$vol.img" "$disk_dir/$target.img" && rmdir "$tmp" || fail "could not place $target.img"
  chmod 600 "$disk_dir/$target.img"
done <<<"$images"
if [ -f "$set_dir/master.key" ]; then
  if [ -n "${H_MASTER_KEY:-}" ]; then
    note "master key: H_MASTER_KEY is set (and equals the set's); no key file written"
  else
    note "master key: $key_file"
    mkdir -p "$data_dir" && chmod 700 "$data_dir"
    (umask 077 && cp "$set_dir/master.key" "$key_file.tmp" && mv -f "$key_file.tmp" "$key_file") || fail "could not write $key_file"
    chmod 600 "$key_file"
  fi
fi
if [ -f "$set_dir/git-data.tar.gz" ]; then
  note "git mirrors: $data_dir/git"
  mkdir -p "$data_dir" && rm -rf "$data_dir/git"
  tar --numeric-owner -C "$data_dir" -xzf "$set_dir/git-data.tar.gz" || fail "could not unpack the git mirrors"
fi

# 5. Sandbox records name the restored storage; no container of theirs runs yet.
note "pointing sandbox records at prefix $new_prefix"
psql -X -q -d "$pgurl" -v ON_ERROR_STOP=1 -v old="$old_prefix" -v new="$new_prefix" <<'SQL' || fail "could not update the sandbox records"
UPDATE "Sandbox" SET
  "volumeName" = CASE WHEN starts_with("volumeName", :'old') THEN :'new' || substr("volumeName", length(:'old') + 1) ELSE "volumeName" END,
  record = (record - 'containerId') || jsonb_build_object(
    'volume', CASE WHEN starts_with(record->>'volume', :'old') THEN :'new' || substr(record->>'volume', length(:'old') + 1) ELSE record->>'volume' END,
    'name', CASE WHEN starts_with(record->>'name', :'old') THEN :'new' || substr(record->>'name', length(:'old') + 1) ELSE record->>'name' END),
  "containerId" = NULL,
  status = CASE WHEN status = 'removed' THEN status ELSE 'stopped'::"SandboxStatus" END
WHERE driver = 'docker' AND record ? 'volume';
SQL
note "applying newer migrations"
DATABASE_URL="$db_url" node "$ROOT/scripts/migrate.mjs" || fail "migrations failed after the restore (the data is restored; fix and run node scripts/migrate.mjs)"
note "restored $set_dir into $db_name (prefix $new_prefix, data dir $data_dir)"
