/**
 * Deliberately bad code for {@code WallsBiteTest}: each class here breaks (or, where annotated with
 * {@code AllowedBecause}, is allowed to break) one wall, so the test can show every rule catching
 * it. Not production code; {@code ArchitectureTest} does not see test classes.
 */
package org.copydesk.archfixture;
