package org.smartssd.fs.sscache;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import org.apache.hadoop.fs.EtagSource;
import org.apache.hadoop.fs.FileStatus;

/**
 * One version of a backing file: its path, length, modification time and etag (where the
 * backing store has etags). Every cached block carries the digest of the version it was
 * read from ({@link CacheBlock}), so a file changed behind the cache's back, directly on the
 * backing store, has another version and its old blocks are never served.
 *
 * @param pathKey the backing path, fully qualified
 * @param length  bytes
 * @param mtime   modification time (ms)
 * @param etag    the backing store's etag, or "" when it has none
 */
public record FileVersion(String pathKey, long length, long mtime, String etag) {

    public static FileVersion of(FileStatus status) {
        String etag = "";
        if (status instanceof EtagSource source && source.getEtag() != null) {
            etag = source.getEtag();
        }
        return new FileVersion(status.getPath().toString(), status.getLen(),
                status.getModificationTime(), etag);
    }

    /**
     * SHA-256 of (path, mtime, etag): what a cached block must carry to be served for this
     * version. The length is checked separately ({@link CacheBlock#matches}) so that a
     * writer, which learns the length only at close, can cache full blocks as it goes.
     */
    public byte[] digest() {
        MessageDigest md = sha256();
        md.update("sscache-block-v1\0".getBytes(StandardCharsets.UTF_8));
        md.update(pathKey.getBytes(StandardCharsets.UTF_8));
        md.update((byte) 0);
        md.update(Long.toString(mtime).getBytes(StandardCharsets.UTF_8));
        md.update((byte) 0);
        md.update(etag.getBytes(StandardCharsets.UTF_8));
        return md.digest();
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JVM has no SHA-256", e);
        }
    }
}
