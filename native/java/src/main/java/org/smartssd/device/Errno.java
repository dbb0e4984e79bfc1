package org.smartssd.device;

/** The Linux errno values the drive (ss_rt.h) and the host library return, negated. */
final class Errno {
    static final int EPERM = 1;
    static final int ENOENT = 2;
    static final int EINTR = 4;
    static final int EIO = 5;
    static final int E2BIG = 7;
    static final int EBADF = 9;
    static final int EAGAIN = 11;
    static final int ENOMEM = 12;
    static final int EACCES = 13;
    static final int EFAULT = 14;
    static final int EBUSY = 16;
    static final int EEXIST = 17;
    static final int EXDEV = 18;
    static final int ENODEV = 19;
    static final int ENOTDIR = 20;
    static final int EISDIR = 21;
    static final int EINVAL = 22;
    static final int EFBIG = 27;
    static final int ENOSPC = 28;
    static final int EROFS = 30;
    static final int EPIPE = 32;
    static final int ERANGE = 34;
    static final int ENAMETOOLONG = 36;
    static final int ENOSYS = 38;
    static final int ENOTEMPTY = 39;
    static final int ELOOP = 40;
    static final int ENODATA = 61;
    static final int ETIME = 62;
    static final int EPROTO = 71;
    static final int EBADMSG = 74;
    static final int EOVERFLOW = 75;
    static final int EILSEQ = 84;
    static final int EUSERS = 87;
    static final int ENOTSOCK = 88;
    static final int ENOTSUP = 95;
    static final int EPROTONOSUPPORT = 93;
    static final int ECONNABORTED = 103;
    static final int ECONNRESET = 104;
    static final int ENOTCONN = 107;
    static final int ESHUTDOWN = 108;
    static final int ETIMEDOUT = 110;
    static final int ECONNREFUSED = 111;
    static final int ECANCELED = 125;

    private Errno() {
    }

    static String name(int errno) {
        switch (errno) {
            case EPERM: return "EPERM";
            case EACCES: return "EACCES";
            case ENOENT: return "ENOENT";
            case EINTR: return "EINTR";
            case EIO: return "EIO";
            case E2BIG: return "E2BIG";
            case EBADF: return "EBADF";
            case EAGAIN: return "EAGAIN";
            case ENOMEM: return "ENOMEM";
            case EFAULT: return "EFAULT";
            case EBUSY: return "EBUSY";
            case EEXIST: return "EEXIST";
            case EXDEV: return "EXDEV";
            case ENODEV: return "ENODEV";
            case ENOTDIR: return "ENOTDIR";
            case EISDIR: return "EISDIR";
            case EINVAL: return "EINVAL";
            case EFBIG: return "EFBIG";
            case ENOSPC: return "ENOSPC";
            case EROFS: return "EROFS";
            case EPIPE: return "EPIPE";
            case ERANGE: return "ERANGE";
            case ENAMETOOLONG: return "ENAMETOOLONG";
            case ENOSYS: return "ENOSYS";
            case ENOTEMPTY: return "ENOTEMPTY";
            case ELOOP: return "ELOOP";
            case ENODATA: return "ENODATA";
            case ETIME: return "ETIME";
            case EPROTO: return "EPROTO";
            case EBADMSG: return "EBADMSG";
            case EOVERFLOW: return "EOVERFLOW";
            case EILSEQ: return "EILSEQ";
            case ENOTSOCK: return "ENOTSOCK";
            case ENOTSUP: return "ENOTSUP";
            case EPROTONOSUPPORT: return "EPROTONOSUPPORT";
            case ECONNABORTED: return "ECONNABORTED";
            case ECONNRESET: return "ECONNRESET";
            case ENOTCONN: return "ENOTCONN";
            case ESHUTDOWN: return "ESHUTDOWN";
            case ETIMEDOUT: return "ETIMEDOUT";
            case ECONNREFUSED: return "ECONNREFUSED";
            case ECANCELED: return "ECANCELED";
            case EUSERS: return "EUSERS";
            default: return "errno " + errno;
        }
    }
}
