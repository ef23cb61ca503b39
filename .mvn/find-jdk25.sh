# Sourced by ./sirocco and .ci/run: points JAVA_HOME at a JDK 25 or newer, or fails with a clear message.
# Order: $JAVA_HOME if it is 25+, then the default java if it is 25+, then /usr/lib/jvm/*25*.
sirocco_java_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p'
}
sirocco_find_jdk25() {
  local candidate major
  for candidate in "${JAVA_HOME:-}" "$(dirname "$(dirname "$(readlink -f "$(command -v java 2>/dev/null || echo /nonexistent)")")")" /usr/lib/jvm/*25* /usr/lib/jvm/*; do
    [ -n "$candidate" ] && [ -x "$candidate/bin/java" ] && [ -x "$candidate/bin/javac" ] || continue
    major=$(sirocco_java_major "$candidate")
    if [ -n "$major" ] && [ "$major" -ge 25 ]; then
      export JAVA_HOME="$candidate"
      export PATH="$JAVA_HOME/bin:$PATH"
      return 0
    fi
  done
  echo "sirocco: no JDK 25 found. Set JAVA_HOME to a JDK 25 (for example Temurin 25) or install one under /usr/lib/jvm." >&2
  return 1
}
