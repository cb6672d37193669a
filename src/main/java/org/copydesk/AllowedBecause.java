package org.copydesk;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a deliberate exception to one of the architecture walls in {@code ArchitectureTest}
 * (docs/house-style.md, "Walls"). The value says why the exception is right, for the next reader; an empty
 * or vague reason should not pass review.
 *
 * <p>On a type it exempts the whole type, its nested and anonymous classes included; on a method or
 * constructor it exempts that member's own code and its lambdas. Package-cycle checks honour it on
 * types only.
 *
 * <p>CLASS retention: the rules read it from the bytecode; nothing needs it at run time.
 */
@Documented
@Retention(RetentionPolicy.CLASS)
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.CONSTRUCTOR})
public @interface AllowedBecause {

    /** Why this code may cross the wall, in a sentence. */
    String value();
}
