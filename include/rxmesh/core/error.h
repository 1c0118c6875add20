// Error types shared by every layer of RXMesh.
//
// Host API functions throw; they never abort. Each exception carries a
// human-readable message that says what was wrong and where.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace rxmesh {

//! Base of every exception RXMesh throws.
class Error : public std::runtime_error
{
   public:
    using std::runtime_error::runtime_error;
};

//! The mesh data itself is unusable (out-of-range index, NaN coordinate, ...).
class InvalidInputError : public Error
{
   public:
    using Error::Error;
};

//! A file could not be parsed. Names the file and the line (text formats) or
//! the byte offset (binary formats) where parsing failed.
class ParseError : public InvalidInputError
{
   public:
    enum class Where
    {
        Line,
        ByteOffset,
        Nowhere
    };

    ParseError(const std::string& file,
               Where              where,
               std::uint64_t      position,
               const std::string& what)
        : InvalidInputError(format(file, where, position, what)),
          m_file(file),
          m_where(where),
          m_position(position)
    {
    }

    const std::string& file() const noexcept { return m_file; }
    Where              where() const noexcept { return m_where; }
    //! 1-based line number, or 0-based byte offset, as where() says.
    std::uint64_t position() const noexcept { return m_position; }

   private:
    static std::string format(const std::string& file,
                              Where              where,
                              std::uint64_t      position,
                              const std::string& what)
    {
        switch (where) {
            case Where::Line:
                return file + ":" + std::to_string(position) + ": " + what;
            case Where::ByteOffset:
                return file + ": byte " + std::to_string(position) + ": " +
                       what;
            default:
                return file + ": " + what;
        }
    }

    std::string   m_file;
    Where         m_where;
    std::uint64_t m_position;
};

//! A file could not be opened, read or written.
class IOError : public Error
{
   public:
    using Error::Error;
};

//! A computation was refused because its result would not fit in the free
//! device memory; the message says how many bytes it would need.
class DeviceMemoryError : public Error
{
   public:
    using Error::Error;
};

//! A CUDA runtime or library call failed.
class CudaError : public Error
{
   public:
    using Error::Error;
};

//! A CUDA call failed because there is no usable device: none, or a driver
//! too old for this build's CUDA runtime (a CudaError too).
class NoDeviceError : public CudaError
{
   public:
    using CudaError::CudaError;
};

}  // namespace rxmesh
