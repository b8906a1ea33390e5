#!/bin/sh
# Build Demon of Ignorance (braathwaate/stratego) as a UCC 2012 bot, in a scratch folder outside this repository.
#
#   benchmarks/build_demon.sh DIR [SOURCE] [LEVELS]
#
# DIR     the scratch folder, e.g. /tmp/demon (refused if it lies inside this repository: Demon's code is GPL and
#         is never copied or committed here).
# SOURCE  where the code comes from: a git directory or bare mirror of the repository,
#         a checked-out folder, or a git URL (default https://github.com/braathwaate/stratego.git).
# LEVELS  the AI levels to write wrappers for (default "1 5"): level L thinks about L*L*10 ms a move.
#
# What it does (each step by hand is in the docstring of benchmarks/strength.py):
#   1. extracts the code into DIR/src;
#   2. compiles what the entry point needs with javac into DIR/classes (the editor under player/editor does not
#      compile with the rest, so it is left out);
#   3. writes DIR/ai.cfg naming the setup files by absolute path: without it, under Java 9+, Demon loads its setups
#      as resources through Class.class, which finds nothing, and it dies at the setup with a NullPointerException;
#   4. writes DIR/runL.sh for every level: a wrapper that enters DIR (where ai.cfg is) and execs java with the
#      options before -t (-lL the level, -1 so that it does not expect the opponent to keep the two-squares rule:
#      it hangs otherwise, see ucc.md), so that the process the manager runs is the JVM itself;
#   5. checks that each wrapper answers a setup request with four rows, and that a seeded wrapper (the environment
#      variable FOGOFWAR_BOT_SEED, which fogofwar's ucc agent sets for every game) sets up from the one line of ai.cfg
#      the seed picks, the same for the same seed.
# Use it as `ucc:DIR/run1.sh` (for example `fogofwar arena --players "search,demon1=ucc:/tmp/demon/run1.sh"`).
set -eu

if [ $# -lt 1 ]; then
    sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
fi
command -v javac >/dev/null && command -v java >/dev/null || {
    echo "build_demon.sh: javac and java are needed (Debian: apt-get install -y default-jdk-headless)" >&2
    exit 1
}
SOURCE=${2:-https://github.com/braathwaate/stratego.git}
LEVELS=${3:-1 5}
REPO=$(cd "$(dirname "$0")/.." && pwd -P)
outside() { # refuse a folder inside the repository, before and after resolving symbolic links
    case "$1/" in
    "$REPO"/*)
        echo "build_demon.sh: $1 is inside the repository $REPO; pick a scratch folder outside it" >&2
        exit 1
        ;;
    esac
}
case "$1" in /*) outside "$1" ;; *) outside "$PWD/$1" ;; esac
outside "$(realpath -m "$1" 2>/dev/null || echo "$1")"
mkdir -p "$1"
DIR=$(cd "$1" && pwd -P)
outside "$DIR"

rm -rf "$DIR/src" "$DIR/classes"
mkdir -p "$DIR/src" "$DIR/classes"
if [ -d "$SOURCE" ] && git --git-dir="$SOURCE" rev-parse --verify -q HEAD >/dev/null 2>&1; then
    git --git-dir="$SOURCE" archive HEAD | tar -x -C "$DIR/src"
    echo "extracted $(git --git-dir="$SOURCE" rev-parse --short HEAD) of $SOURCE"
elif [ -d "$SOURCE/.git" ]; then
    git -C "$SOURCE" archive HEAD | tar -x -C "$DIR/src"
    echo "extracted $(git -C "$SOURCE" rev-parse --short HEAD) of $SOURCE"
elif [ -d "$SOURCE/src/com/cjmalloy" ]; then
    cp -R "$SOURCE/." "$DIR/src"
    echo "copied $SOURCE"
else
    rm -rf "$DIR/src"
    git clone --quiet --depth 1 "$SOURCE" "$DIR/src"
    echo "cloned $(git -C "$DIR/src" rev-parse --short HEAD) of $SOURCE"
fi

PKG="$DIR/src/src/com/cjmalloy/stratego"
javac -nowarn -encoding UTF-8 -sourcepath "$DIR/src/src" -d "$DIR/classes" "$PKG/player/StrategoDriver.java" 2>&1 |
    grep -v '^Note:' || true
[ -f "$DIR/classes/com/cjmalloy/stratego/player/StrategoDriver.class" ] || {
    echo "build_demon.sh: javac failed" >&2
    exit 1
}
echo "compiled into $DIR/classes"

sed "s#^/com/#$DIR/src/src/com/#" "$PKG/resource/ai.cfg" >"$DIR/ai.cfg"
echo "wrote $DIR/ai.cfg ($(wc -l <"$DIR/ai.cfg") setups by absolute path)"

for level in $LEVELS; do
    cat >"$DIR/run$level.sh" <<EOF
#!/bin/sh
# Demon of Ignorance, AI level $level, as a UCC 2012 bot (written by build_demon.sh). It runs in $DIR, where its
# ai.cfg is, and execs the JVM so that the manager's signals reach the bot itself. When the manager gives the game a
# seed (FOGOFWAR_BOT_SEED, as fogofwar's ucc agent does), Demon sets up from the one line of ai.cfg that seed picks
# (it runs in a folder whose ai.cfg holds that line), so a seeded series meets the same Demon setups every time.
cd "$DIR" || exit 1
if [ -n "\${FOGOFWAR_BOT_SEED:-}" ]; then
    n=\$(grep -c . ai.cfg)
    line=\$((FOGOFWAR_BOT_SEED % n + 1))
    mkdir -p "seeded/\$line" || exit 1
    grep . ai.cfg | sed -n "\${line}p" >"seeded/\$line/ai.cfg.\$\$" && mv -f "seeded/\$line/ai.cfg.\$\$" "seeded/\$line/ai.cfg" || exit 1
    cd "seeded/\$line" || exit 1
fi
exec java -Djava.awt.headless=true -cp "$DIR/classes" com.cjmalloy.stratego.player.StrategoDriver -l$level -1 -t
EOF
    chmod +x "$DIR/run$level.sh"
    rows=$(printf 'RED fogofwar 10 10\nQUIT\n' | timeout 30 "$DIR/run$level.sh" 2>/dev/null | head -4 |
        grep -c '^[0-9sBF]\{10\}$' || true)
    if [ "$rows" = 4 ]; then
        echo "wrote $DIR/run$level.sh (it answers a setup request with four rows)"
    else
        echo "build_demon.sh: $DIR/run$level.sh did not send a setup; run it by hand to see why" >&2
        exit 1
    fi
    seeded() { printf 'RED fogofwar 10 10\nQUIT\n' | FOGOFWAR_BOT_SEED=$1 timeout 30 "$DIR/run$level.sh" 2>/dev/null | head -4; }
    first=$(seeded 7) second=$(seeded 7)
    if [ -n "$first" ] && [ "$first" = "$second" ]; then
        echo "checked that $DIR/run$level.sh sets up alike for the same FOGOFWAR_BOT_SEED"
    else
        echo "build_demon.sh: $DIR/run$level.sh set up differently for the same FOGOFWAR_BOT_SEED" >&2
        exit 1
    fi
done
