package org.hpf.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Member;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.hpf.HpfArchive;
import org.junit.jupiter.api.Test;

/**
 * The public API shows no engine type: every public or protected signature of a public type in
 * the API packages uses only JDK, Hadoop and API types, never one from {@code org.hpf.internal}.
 */
class PublicApiTest {
  /** The packages whose public types users may call; everything else is internal. */
  static final List<String> API_PACKAGES = List.of("org.hpf", "org.hpf.fs", "org.hpf.mapreduce");

  static List<Class<?>> publicTypes() throws IOException, URISyntaxException,
      ClassNotFoundException {
    Path classes = Path.of(HpfArchive.class.getProtectionDomain().getCodeSource().getLocation()
        .toURI());
    List<Class<?>> types = new ArrayList<>();
    for (String pkg : API_PACKAGES) {
      Path dir = classes.resolve(pkg.replace('.', '/'));
      try (Stream<Path> files = Files.list(dir)) {
        for (Path file : files.filter(f -> f.toString().endsWith(".class")).toList()) {
          String simple = file.getFileName().toString().replace(".class", "");
          Class<?> type = Class.forName(pkg + "." + simple); // binary name: Outer$Inner
          if (isVisible(type)) {
            types.add(type);
          }
        }
      }
    }
    return types;
  }

  private static boolean isVisible(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getDeclaringClass()) {
      if (!Modifier.isPublic(c.getModifiers()) || c.isAnonymousClass() || c.isSynthetic()) {
        return false;
      }
    }
    return true;
  }

  @Test
  void noInternalTypeInAPublicSignature() throws Exception {
    TreeSet<String> leaks = new TreeSet<>();
    List<Class<?>> types = publicTypes();
    for (Class<?> type : types) {
      check(type.getGenericSuperclass(), type.getName() + " extends", leaks);
      for (Type iface : type.getGenericInterfaces()) {
        check(iface, type.getName() + " implements", leaks);
      }
      for (Method m : type.getDeclaredMethods()) {
        if (visible(m) && !m.isSynthetic()) {
          String where = type.getName() + "." + m.getName();
          check(m.getGenericReturnType(), where, leaks);
          for (Type p : m.getGenericParameterTypes()) {
            check(p, where, leaks);
          }
          for (Type e : m.getGenericExceptionTypes()) {
            check(e, where, leaks);
          }
        }
      }
      for (Constructor<?> c : type.getDeclaredConstructors()) {
        if (visible(c)) {
          for (Type p : c.getGenericParameterTypes()) {
            check(p, type.getName() + ".<init>", leaks);
          }
        }
      }
      for (Field f : type.getDeclaredFields()) {
        if (visible(f)) {
          check(f.getGenericType(), type.getName() + "." + f.getName(), leaks);
        }
      }
    }
    assertTrue(types.size() > 20, "found the API types: " + types);
    assertEquals(new TreeSet<String>(), leaks, "public signatures that use internal types");
  }

  @Test
  void theUserGuideNamesEveryPublicType() throws Exception {
    String guide = Files.readString(DocExamplesTest.root().resolve("docs/USER-GUIDE.md"));
    TreeSet<String> missing = new TreeSet<>();
    for (Class<?> type : publicTypes()) {
      if (type.getDeclaringClass() == null && !guide.contains("`" + type.getSimpleName() + "`")
          && !guide.contains("`" + type.getName() + "`")) {
        missing.add(type.getName());
      }
    }
    assertEquals(new TreeSet<String>(), missing, "public types docs/USER-GUIDE.md leaves out");
  }

  private static boolean visible(Member member) {
    int modifiers = member.getModifiers();
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  private static void check(Type type, String where, TreeSet<String> leaks) {
    if (type instanceof Class<?> c) {
      while (c.isArray()) {
        c = c.getComponentType();
      }
      if (c.getName().startsWith("org.hpf.internal.")) {
        leaks.add(where + " uses " + c.getName());
      }
    } else if (type instanceof ParameterizedType p) {
      check(p.getRawType(), where, leaks);
      for (Type arg : p.getActualTypeArguments()) {
        check(arg, where, leaks);
      }
    } else if (type instanceof GenericArrayType a) {
      check(a.getGenericComponentType(), where, leaks);
    } else if (type instanceof WildcardType w) {
      for (Type bound : w.getUpperBounds()) {
        check(bound, where, leaks);
      }
      for (Type bound : w.getLowerBounds()) {
        check(bound, where, leaks);
      }
    }
  }
}
