#!/bin/sh
# readme-cast.sh - the README's demo, man/demo.cast, made by the program
# (make readme-cast): --snapshot=80x24 --cast of the break, the values
# panel, the energy plot, a kick, the momentum plot and the velocity arrows,
# 19.5 s at 20 t/s and 30 frames a second. The header's timestamp is fixed
# (SOURCE_DATE_EPOCH, unless set), so that the same program makes the same
# file. With an argument, the cast goes there instead.
cd "$(dirname "$0")/.." || exit 1
SPRINGBALL=${SPRINGBALL:-./springball}
KEYS='<t 50> i <t 60> P <t 80> up*4 enter <t 80> P <t 60> v <t 60>'
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1796342400} \
    "$SPRINGBALL" --snapshot=80x24 --cast="${1:-man/demo.cast}" --keys="$KEYS" \
    scenes/break.scene </dev/null >/dev/null
