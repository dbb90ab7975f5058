# Tests: every tests/*/build.mk adds its sources and its steps to TEST_STEPS.
TEST_STEPS :=
include $(wildcard tests/*/build.mk)
