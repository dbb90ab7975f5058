#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Keeps mm/README.md and tests/port/ the same example. In the guide, an HTML comment before a
# fenced block says what the block must be:
#   <!-- tests/port/FILE, in full -->   the block is FILE, byte for byte
#   <!-- from tests/port/FILE -->       the block is a run of whole lines of FILE
#   <!-- output of tests/port -->       every line of the block is a line the port program printed
# and the example's glue (mm_env.h and env.c: every line that is neither blank nor a comment)
# must be at most GLUE_MAX lines. Prints the glue count.
# Usage: tests/port/check-guide.sh PORT_OUTPUT   (run from the top of the tree)
set -eu
output=${1:?usage: tests/port/check-guide.sh PORT_OUTPUT}
GLUE_MAX=40 exec perl -e '
use strict; use warnings;
my ($guide, $output) = @ARGV;
sub slurp { my ($f) = @_; open(my $h, "<", $f) or die "port guide: cannot read $f: $!\n"; local $/; my $s = <$h>; return $s; }
my $text = slurp($guide);
my ($bad, $blocks) = (0, 0);
sub fail { print STDERR "port guide: $guide: @_\n"; $bad = 1; }
while ($text =~ /<!-- (.*?) -->\n```[a-z]*\n(.*?)^```$/msg) {
	my ($what, $block) = ($1, $2);
	$blocks++;
	if ($what =~ m{^(tests/port/\S+), in full$}) {
		fail("the block marked $1 is not that file") if slurp($1) ne $block;
	} elsif ($what =~ m{^from (tests/port/\S+)$}) {
		my $file = slurp($1);
		fail("the block marked from $1 is not in that file") if index("\n$file", "\n$block") < 0;
	} elsif ($what eq "output of tests/port") {
		my %printed = map { $_ => 1 } split /\n/, slurp($output);
		$printed{$_} or fail("the port program did not print: $_") for split /\n/, $block;
	} elsif ($what !~ m{^tests/port/build.sh runs this block$}) {
		fail("unknown block marker <!-- $what -->");
	}
}
fail("no marked blocks") if !$blocks;
my $glue = 0;
for my $f ("tests/port/mm_env.h", "tests/port/env.c") {
	$glue += grep { !/^\s*$/ && !m{^\s*(/\*|\*)} } split /\n/, slurp($f);
}
print "port guide: $blocks blocks match tests/port; glue: $glue lines (mm_env.h and env.c, at most $ENV{GLUE_MAX})\n";
fail("the glue has $glue lines, more than $ENV{GLUE_MAX}") if $glue > $ENV{GLUE_MAX};
exit $bad;
' mm/README.md "$output"
