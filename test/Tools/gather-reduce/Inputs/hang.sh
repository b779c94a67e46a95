#!/bin/sh
# Interestingness test that never ends (its child neither): gather-reduce
# kills the test's process group after --test-timeout seconds.
sleep 600 &
wait
