# What every script that makes a debug build of this package shares (sourced by test, demo, chaos,
# replay, hostile and pictures), so that one build serves them all: the app library
# (QuakeBundleKit) compiled optimised, as the pipeline is (Package.swift says why only here).
export QUAKE_BAKE_OPTIMISE_APP_LIBRARY=1
