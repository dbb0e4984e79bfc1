package org.smartssd.fs.impl;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.hadoop.fs.Path;

/**
 * One file system operation, run once (like hadoop-aws's {@code ExecutingStoreOperation}).
 * It gets the {@link StoreContext} and a narrow callbacks interface, never the file system.
 * {@link #execute()} translates what the drive throws through {@link ErrorTranslation}.
 *
 * @param <T> the result
 */
public abstract class StoreOperation<T> {
    private final StoreContext context;
    private final String name;
    private final Path path;
    private final AtomicBoolean executed = new AtomicBoolean();

    protected StoreOperation(StoreContext context, String name, Path path) {
        this.context = context;
        this.name = name;
        this.path = path;
    }

    public StoreContext context() {
        return context;
    }

    public Path path() {
        return path;
    }

    /** Runs the operation; a second call is refused. */
    public final T execute() throws IOException {
        if (!executed.compareAndSet(false, true)) {
            throw new IllegalStateException(name + " of " + path + " has already run");
        }
        context.countOperation(name);
        try {
            return executeOnce();
        } catch (IOException e) {
            throw ErrorTranslation.translate(context,
                    name.startsWith("op_") ? name.substring(3) : name, path, e);
        }
    }

    /** The work; drive exceptions may escape, {@link #execute()} translates them. */
    protected abstract T executeOnce() throws IOException;
}
