import CLibCrypto

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The libcrypto functions ``SHA256`` calls, found with `dlopen` and `dlsym` when the first hash starts.
///
/// Linked, libcrypto would be mapped and relocated by the dynamic loader at every exec: 1.4 MB of the idle
/// dashboard's resident memory, in a program that never hashes there. Opened here once per process instead.
/// Every call goes through a function pointer, as a linked call goes through the PLT, so hashing is as fast.
///
/// `@unchecked Sendable`: the pointers are immutable after ``open()`` and name libcrypto's code and its
/// SHA-256 method table, which OpenSSL 3 lets any thread use at once (each computation has its own context).
struct LibCrypto: @unchecked Sendable {
    let newContext: CLibCryptoMDContextNew
    let freeContext: CLibCryptoMDContextFree
    let copyContext: CLibCryptoMDContextCopy
    let digestInit: CLibCryptoDigestInit
    let digestUpdate: CLibCryptoDigestUpdate
    let digestFinal: CLibCryptoDigestFinal
    /// libcrypto's SHA-256, fetched once per process: a fetch looks the algorithm up in the loaded providers,
    /// and doing it per message would cost more than hashing a small one.
    let sha256: OpaquePointer

    /// The names tried in order: the soname of the major version the headers declare (Debian's libssl3 ships
    /// `libcrypto.so.3`), then the unversioned development name.
    static let libraryNames: [String] = {
        #if canImport(Darwin)
        ["libcrypto.\(OPENSSL_VERSION_MAJOR).dylib", "libcrypto.dylib"]
        #else
        ["libcrypto.so.\(OPENSSL_VERSION_MAJOR)", "libcrypto.so"]
        #endif
    }()

    /// The library, opened by the first hash (or ``SHA256/loadLibrary()``); the failure names it.
    static let shared: Result<LibCrypto, LibCryptoError> = open()

    /// The library, or a stop whose message names it and why it could not be loaded (commands that hash
    /// call ``SHA256/loadLibrary()`` first and exit with that message instead).
    static var loaded: LibCrypto {
        switch shared {
        case .success(let library): library
        case .failure(let error): fatalError("\(error)")
        }
    }

    private static func open() -> Result<LibCrypto, LibCryptoError> {
        var reasons: [String] = []
        for name in libraryNames {
            guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
                reasons.append(dlerror().map { String(cString: $0) } ?? "\(name): not found")
                continue
            }
            return Result { () throws(LibCryptoError) in try LibCrypto(handle: handle, name: name) }
        }
        return .failure(LibCryptoError(library: libraryNames[0], reason: reasons.joined(separator: "; ")))
    }

    /// Looks every function up in the opened library `name` and fetches SHA-256. The handle is never
    /// closed: the functions stay in use until the process ends.
    private init(handle: UnsafeMutableRawPointer, name: String) throws(LibCryptoError) {
        func function<Function>(_ symbol: String, as type: Function.Type) throws(LibCryptoError) -> Function {
            guard let address = dlsym(handle, symbol) else {
                throw LibCryptoError(library: name, reason: "it has no \(symbol) (OpenSSL 3 is needed)")
            }
            return unsafeBitCast(address, to: type)
        }
        newContext = try function("EVP_MD_CTX_new", as: CLibCryptoMDContextNew.self)
        freeContext = try function("EVP_MD_CTX_free", as: CLibCryptoMDContextFree.self)
        copyContext = try function("EVP_MD_CTX_copy_ex", as: CLibCryptoMDContextCopy.self)
        digestInit = try function("EVP_DigestInit_ex2", as: CLibCryptoDigestInit.self)
        digestUpdate = try function("EVP_DigestUpdate", as: CLibCryptoDigestUpdate.self)
        digestFinal = try function("EVP_DigestFinal_ex", as: CLibCryptoDigestFinal.self)
        let fetch = try function("EVP_MD_fetch", as: CLibCryptoMDFetch.self)
        guard let sha256 = fetch(nil, "SHA256", nil) else {
            throw LibCryptoError(library: name, reason: "it has no usable SHA-256 (EVP_MD_fetch failed)")
        }
        self.sha256 = sha256
    }
}

/// libcrypto could not be opened, or lacks what SHA-256 needs.
public struct LibCryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The library tried (the first name when none of the names could be opened).
    public var library: String
    /// The dynamic loader's message, or what the library lacks.
    public var reason: String

    /// `cannot load libcrypto.so.3 (OpenSSL 3's libcrypto, which SHA-256 needs; Debian: libssl3): REASON`.
    public var description: String {
        "cannot load \(library) (OpenSSL 3's libcrypto, which SHA-256 needs; Debian: libssl3): \(reason)"
    }
}
