package org.copydesk.testing;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives a test class a migrated database of its own on the real server of this run (see
 * {@link TestServer}). Inject {@link TestDatabase} into constructors, lifecycle or test methods.
 */
public final class DatabaseExtension implements BeforeAllCallback, AfterAllCallback, ParameterResolver {

    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(DatabaseExtension.class);

    @Override
    public void beforeAll(ExtensionContext context) {
        store(context).getOrComputeIfAbsent("db", k -> TestDatabase.create(context.getRequiredTestClass().getSimpleName(), 16),
                TestDatabase.class);
    }

    @Override
    public void afterAll(ExtensionContext context) {
        // Nested classes share the outer class's database; only the class that created it drops it.
        if (context.getParent().flatMap(ExtensionContext::getTestClass).isEmpty()) {
            TestDatabase db = store(context).remove("db", TestDatabase.class);
            if (db != null) {
                db.close();
            }
        }
    }

    @Override
    public boolean supportsParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        return parameterContext.getParameter().getType() == TestDatabase.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameterContext, ExtensionContext extensionContext) {
        // Stores see their parents' values: a test method finds its class's database. With a
        // per-class test instance the constructor is resolved before beforeAll, so create it here.
        return store(extensionContext).getOrComputeIfAbsent("db",
                k -> TestDatabase.create(extensionContext.getRequiredTestClass().getSimpleName(), 16), TestDatabase.class);
    }

    private static ExtensionContext.Store store(ExtensionContext context) {
        return context.getStore(NS);
    }
}
