// `PGSimulator.init` takes a `Sleeper`, what it waits with when a fault delays an answer (tests
// pass one that advances a test clock instead of sleeping). Both are declared in the
// Infrastructure layer, which is not a product; these imports hand out only them.
@_exported import protocol KeyCatInfrastructure.Sleeper
@_exported import struct KeyCatInfrastructure.TaskSleeper
