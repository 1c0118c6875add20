// AttributeRegistry: owns a mesh's named attributes of any value type T,
// component count N and element kind (vertex, edge or face).
//
// Each attribute is one device array (DeviceBuffer<T>, num_elements * N
// values, element-major) plus a host mirror of the same size, both allocated
// once when the attribute is added and never reallocated: the Attribute
// handles that add() and get() return stay valid until the attribute is
// removed or the registry is destroyed (a moved-from registry hands its
// storage over unchanged, so handles survive moving the registry or the mesh).
//
//   AttributeRegistry reg(num_vertices, num_edges, num_faces);
//   auto w = reg.add<float, 1, VertexId>("weight", 1.f);
//   auto same = reg.get<float, 1, VertexId>("weight");
//
// Host-side bookkeeping only (no kernel): usable from .cpp files. A registry
// with zero elements of a kind never touches the GPU for that kind.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

#include "rxmesh/attribute/attribute.h"
#include "rxmesh/core/device_buffer.h"
#include "rxmesh/core/error.h"
#include "rxmesh/core/ids.h"

namespace rxmesh {

namespace detail {

//! A readable name for common value types, typeid's name otherwise.
template <typename T>
std::string attribute_type_name()
{
    if constexpr (std::is_same_v<T, float>) return "float";
    else if constexpr (std::is_same_v<T, double>) return "double";
    else if constexpr (std::is_same_v<T, bool>) return "bool";
    else if constexpr (std::is_same_v<T, char>) return "char";
    else if constexpr (std::is_same_v<T, std::int8_t>) return "int8";
    else if constexpr (std::is_same_v<T, std::uint8_t>) return "uint8";
    else if constexpr (std::is_same_v<T, std::int16_t>) return "int16";
    else if constexpr (std::is_same_v<T, std::uint16_t>) return "uint16";
    else if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
    else if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32";
    else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
    else if constexpr (std::is_same_v<T, std::uint64_t>) return "uint64";
    else return typeid(T).name();
}

inline const char* element_kind_name(ElementKind kind)
{
    switch (kind) {
        case ElementKind::Vertex: return "vertex";
        case ElementKind::Edge: return "edge";
        default: return "face";
    }
}

//! "float x3 per vertex"
template <typename T, int N, typename Id>
std::string attribute_description()
{
    return attribute_type_name<T>() + " x" + std::to_string(N) + " per " +
           element_kind_name(KindOf<Id>::value);
}

//! Type-erased storage of one attribute.
class AttributeStorageBase
{
   public:
    virtual ~AttributeStorageBase() = default;
    //! typeid(Attribute<T, N, Id>) of the stored attribute.
    virtual std::type_index type() const = 0;
    virtual std::string     description() const = 0;
    //! Device bytes of the values (the host mirror not counted).
    virtual std::size_t device_bytes() const = 0;
};

template <typename T, int N, typename Id>
class AttributeStorage final : public AttributeStorageBase
{
   public:
    //! Values set to `init` on the device and in the host mirror.
    AttributeStorage(std::uint32_t num_elements, T init, cudaStream_t stream)
        : AttributeStorage(num_elements, stream)
    {
        const std::uint64_t n = std::uint64_t(num_elements) * N;
        for (std::uint64_t i = 0; i < n; ++i)
            m_host[i] = init;
        if (n == 0)
            return;  // no CUDA call for an empty attribute
        if (std::optional<unsigned char> byte = repeated_byte(init)) {
            m_device.memset(*byte);  // no host-to-device copy for 0, -1, ...
            // set when add() returns, as with the copy (which synchronises)
            RXMESH_CHECK_CUDA(cudaStreamSynchronize(stream));
        } else {
            m_device.upload(m_host.get(), n);
        }
    }

    //! Values left unset on the device and in the host mirror (which is
    //! allocated but not touched): for values the caller computes on the
    //! device right away.
    AttributeStorage(std::uint32_t num_elements, cudaStream_t stream)
        : m_num_elements(num_elements),
          m_device(std::uint64_t(num_elements) * N, stream),
          // unique_ptr<T[]>, not std::vector<T>: vector<bool> has no data()
          m_host(new T[std::uint64_t(num_elements) * N]),
          m_stream(stream)
    {
    }

    //! The byte `value` repeats, if its bytes are all the same.
    static std::optional<unsigned char> repeated_byte(const T& value)
    {
        unsigned char bytes[sizeof(T)];
        std::memcpy(bytes, &value, sizeof(T));
        for (std::size_t i = 1; i < sizeof(T); ++i)
            if (bytes[i] != bytes[0])
                return std::nullopt;
        return bytes[0];
    }

    std::type_index type() const override
    {
        return std::type_index(typeid(Attribute<T, N, Id>));
    }
    std::string description() const override
    {
        return attribute_description<T, N, Id>();
    }
    std::size_t device_bytes() const override { return m_device.allocated_bytes(); }

    Attribute<T, N, Id> handle()
    {
        return Attribute<T, N, Id>(m_device.data(), m_host.get(), m_num_elements, m_stream);
    }

   private:
    std::uint32_t        m_num_elements;
    DeviceBuffer<T>      m_device;
    std::unique_ptr<T[]> m_host;
    cudaStream_t         m_stream;
};

}  // namespace detail

class AttributeRegistry
{
   public:
    AttributeRegistry(std::uint32_t num_vertices,
                      std::uint32_t num_edges,
                      std::uint32_t num_faces,
                      cudaStream_t  stream = 0)
        : m_num_vertices(num_vertices),
          m_num_edges(num_edges),
          m_num_faces(num_faces),
          m_stream(stream)
    {
    }

    AttributeRegistry(const AttributeRegistry&)            = delete;
    AttributeRegistry& operator=(const AttributeRegistry&) = delete;
    AttributeRegistry(AttributeRegistry&&) noexcept        = default;
    AttributeRegistry& operator=(AttributeRegistry&&) noexcept = default;
    ~AttributeRegistry()                                       = default;

    //! Number of elements of the kind `Id` names.
    template <typename Id>
    std::uint32_t num_elements() const
    {
        constexpr ElementKind kind = KindOf<Id>::value;
        if constexpr (kind == ElementKind::Vertex)
            return m_num_vertices;
        else if constexpr (kind == ElementKind::Edge)
            return m_num_edges;
        else
            return m_num_faces;
    }

    //! Adds an attribute of num_elements<Id>() * N values, every value (on
    //! the device and in the host mirror) set to `init`.
    //! \throw Error when `name` is empty or already names an attribute.
    template <typename T, int N, typename Id>
    Attribute<T, N, Id> add(const std::string& name, T init = T{})
    {
        check_new<T>(name);
        return insert(name, std::make_unique<detail::AttributeStorage<T, N, Id>>(
                                num_elements<Id>(), init, m_stream));
    }

    //! The same, with the values left unset on the device and in the host
    //! mirror: for values computed on the device right after (nothing is
    //! filled or copied; the host mirror is current after to_host()).
    template <typename T, int N, typename Id>
    Attribute<T, N, Id> add_unset(const std::string& name)
    {
        check_new<T>(name);
        return insert(name, std::make_unique<detail::AttributeStorage<T, N, Id>>(
                                num_elements<Id>(), m_stream));
    }

    //! The attribute called `name`.
    //! \throw Error naming the attribute when there is none, or when it has
    //!        another value type, component count or element kind.
    template <typename T, int N, typename Id>
    Attribute<T, N, Id> get(const std::string& name) const
    {
        const auto it = m_entries.find(name);
        if (it == m_entries.end())
            throw Error("AttributeRegistry::get: no attribute named '" + name + "'");
        if (it->second->type() != std::type_index(typeid(Attribute<T, N, Id>)))
            throw Error("AttributeRegistry::get: attribute '" + name + "' is " +
                        it->second->description() + ", requested as " +
                        detail::attribute_description<T, N, Id>());
        return static_cast<detail::AttributeStorage<T, N, Id>&>(*it->second).handle();
    }

    bool contains(const std::string& name) const { return m_entries.count(name) != 0; }

    //! Frees the attribute; its handles dangle from then on.
    //! \throw Error when there is no attribute called `name`.
    void remove(const std::string& name)
    {
        if (m_entries.erase(name) == 0)
            throw Error("AttributeRegistry::remove: no attribute named '" + name + "'");
    }

    //! Attribute names, sorted.
    std::vector<std::string> names() const
    {
        std::vector<std::string> out;
        out.reserve(m_entries.size());
        for (const auto& entry : m_entries)
            out.push_back(entry.first);
        return out;
    }

    std::size_t size() const { return m_entries.size(); }

    //! Device bytes of the values of the attribute called `name`.
    //! \throw Error when there is none.
    std::size_t device_bytes(const std::string& name) const
    {
        const auto it = m_entries.find(name);
        if (it == m_entries.end())
            throw Error("AttributeRegistry::device_bytes: no attribute named '" + name + "'");
        return it->second->device_bytes();
    }

    //! Device bytes of every attribute's values.
    std::size_t device_bytes() const
    {
        std::size_t total = 0;
        for (const auto& entry : m_entries)
            total += entry.second->device_bytes();
        return total;
    }

   private:
    template <typename T>
    void check_new(const std::string& name) const
    {
        static_assert(std::is_trivially_copyable_v<T>,
                      "attribute values must be trivially copyable");
        if (name.empty())
            throw Error("AttributeRegistry::add: an attribute needs a non-empty name");
        if (m_entries.count(name) != 0)
            throw Error("AttributeRegistry::add: attribute '" + name + "' already exists (" +
                        m_entries.at(name)->description() + ")");
    }

    template <typename T, int N, typename Id>
    Attribute<T, N, Id> insert(const std::string&                                    name,
                               std::unique_ptr<detail::AttributeStorage<T, N, Id>> storage)
    {
        static_assert(N >= 1, "an attribute has at least one component");
        Attribute<T, N, Id> handle = storage->handle();
        m_entries.emplace(name, std::move(storage));
        return handle;
    }

    std::uint32_t m_num_vertices = 0, m_num_edges = 0, m_num_faces = 0;
    cudaStream_t  m_stream = 0;
    std::map<std::string, std::unique_ptr<detail::AttributeStorageBase>> m_entries;
};

}  // namespace rxmesh
