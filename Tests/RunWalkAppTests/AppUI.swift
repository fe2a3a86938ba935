import Testing

/// Every test that drives the app under Xvfb, one at a time: each runs an X server, a GTK app, a
/// bus and an AT-SPI client, which two cores cannot do twice at once within the tests' time
/// limits. Their waits are on threads of their own (`XSession.run`), so the other tests go on
/// meanwhile on the test pool's threads.
@Suite(.serialized) enum AppUI {}
